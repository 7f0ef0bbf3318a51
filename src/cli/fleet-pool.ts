import { optimiseWorkersLater } from './v8-flags.ts'
import { Worker } from 'node:worker_threads'
import type { FleetConfig } from '../fleet/evaluate.ts'
import type { FleetOutcome } from '../fleet/types.ts'
import { fleetWorkerEntry, TSX_WORKER_ENTRY } from './fleet-worker-bundle.ts'
import { evaluatePath, fleetDeps } from './fleet-task.ts'
import { threadTimes, type ThreadTimes } from './thread-cpu.ts'

export interface PoolTask {
  readonly id: number
  readonly path: string
}

/** Every reply carries the worker thread's own times so far (null off Linux). */
export type PoolReply =
  | { readonly kind: 'ready'; readonly times: ThreadTimes | null }
  | {
      readonly kind: 'done'
      readonly id: number
      readonly outcomes: FleetOutcome[]
      readonly times: ThreadTimes | null
    }
  | {
      readonly kind: 'error'
      readonly id: number
      readonly message: string
      readonly times: ThreadTimes | null
    }

/** Called as each file finishes, in completion order. */
export type OnFileDone = (path: string, outcomes: readonly FleetOutcome[]) => void

/** What one worker did: the figures that show whether the pool, not the engine, is the limit. */
export interface WorkerStats {
  readonly files: number
  /** Wall time from `new Worker` to its first message (module load, tokenizer). */
  readonly startupMs: number
  /** The worker thread's CPU by then; null where threads cannot be timed. */
  readonly startupCpuMs: number | null
  /** The worker thread's CPU in all (start-up included) and its time waiting for a CPU. */
  readonly cpuMs: number | null
  readonly waitMs: number | null
  /** Wall time holding a file (the rest of the pool's wall time it sat idle or starting). */
  readonly busyMs: number
}

export interface PoolStats {
  readonly jobs: number
  /** `in-thread`: jobs 1; `bundle`: workers on the cached bundle; `tsx`: workers through tsx. */
  readonly entry: 'in-thread' | 'bundle' | 'tsx'
  readonly wallMs: number
  /** The calling thread's CPU over the run (for jobs 1 that is all the work). */
  readonly mainCpuMs: number | null
  readonly workers: readonly WorkerStats[]
}

export interface PoolOptions {
  /** File sizes: with several workers the largest go first (LPT), so no big file starts last. */
  readonly sizes?: ReadonlyMap<string, number>
  /** Worker entry (tests pass the tsx one); default: the cached bundle, else tsx. */
  readonly entry?: URL
}

/** Dispatch order: size descending, ties (and unknown sizes) in the given order. */
function largestFirst(paths: readonly string[], sizes?: ReadonlyMap<string, number>): string[] {
  if (!sizes) return [...paths]
  return paths
    .map((path, k) => ({ path, k, size: sizes.get(path) ?? 0 }))
    .sort((a, b) => b.size - a.size || a.k - b.k)
    .map((x) => x.path)
}

/**
 * Evaluate every path: `jobs` 1 runs in this thread (no worker start-up, the same code path);
 * more runs a pool of that many worker threads, each pulling the next path when it finishes one,
 * largest files first so the run does not end on one worker with a big file. A worker that dies
 * fails only the file it held; the rest go on in the others. Outcomes come back keyed by path
 * (completion order: the report sorts them), with the pool's CPU split.
 */
export async function evaluatePaths(
  paths: readonly string[],
  fleet: FleetConfig,
  jobs: number,
  onDone: OnFileDone,
  options: PoolOptions = {},
): Promise<{ results: Map<string, readonly FleetOutcome[]>; stats: PoolStats }> {
  const started = performance.now()
  const cpu0 = threadTimes()
  const results = new Map<string, readonly FleetOutcome[]>()
  const finish = (path: string, outcomes: readonly FleetOutcome[]) => {
    results.set(path, outcomes)
    onDone(path, outcomes)
  }
  const stats = (entry: PoolStats['entry'], workers: readonly WorkerStats[]): PoolStats => {
    const cpu1 = threadTimes()
    return {
      jobs,
      entry,
      wallMs: performance.now() - started,
      mainCpuMs: cpu0 && cpu1 ? cpu1.cpuMs - cpu0.cpuMs : null,
      workers,
    }
  }
  if (jobs <= 1 || paths.length <= 1) {
    const deps = await fleetDeps(fleet.config)
    for (const path of paths) finish(path, await evaluatePath(path, fleet, deps))
    return { results, stats: stats('in-thread', []) }
  }
  const entry = options.entry ?? (await fleetWorkerEntry())
  optimiseWorkersLater()
  const order = largestFirst(paths, options.sizes)
  const workers: WorkerStats[] = []
  let next = 0
  const size = Math.min(jobs, paths.length)
  const runWorker = () =>
    new Promise<void>((resolve) => {
      const created = performance.now()
      const worker = new Worker(entry, { workerData: { fleet } })
      const own = { files: 0, startupMs: 0, startupCpuMs: null as number | null, busyMs: 0 }
      let times: ThreadTimes | null = null
      let held: PoolTask | null = null
      let heldSince = 0
      const close = () => {
        workers.push({ ...own, cpuMs: times?.cpuMs ?? null, waitMs: times?.waitMs ?? null })
        resolve()
      }
      const give = () => {
        if (next >= order.length) {
          held = null
          void worker.terminate().then(close)
          return
        }
        held = { id: next, path: order[next] as string }
        next++
        heldSince = performance.now()
        worker.postMessage(held)
      }
      worker.on('message', (reply: PoolReply) => {
        times = reply.times ?? times
        if (reply.kind === 'ready') {
          own.startupMs = performance.now() - created
          own.startupCpuMs = reply.times?.cpuMs ?? null
          return give()
        }
        own.files++
        own.busyMs += performance.now() - heldSince
        const path = order[reply.id] as string
        if (reply.kind === 'done') finish(path, reply.outcomes)
        else
          finish(path, [
            {
              kind: 'failed',
              failure: { name: path, message: `internal error: ${reply.message}` },
            },
          ])
        give()
      })
      worker.on('error', (error) => {
        // A worker that fails before taking a file (start-up) is not replaced: what it would
        // have taken is left for the others, and for this thread below.
        if (!held) return close()
        // The worker is gone: its file fails, the others carry on in a fresh worker, so a file
        // that crashes one cannot starve the queue.
        finish(held.path, [
          {
            kind: 'failed',
            failure: { name: held.path, message: `worker crashed: ${error.message}` },
          },
        ])
        held = null
        workers.push({ ...own, cpuMs: times?.cpuMs ?? null, waitMs: times?.waitMs ?? null })
        void runWorker().then(resolve)
      })
    })
  await Promise.all(Array.from({ length: size }, runWorker))
  // Only if every worker failed to start: finish in this thread rather than drop files.
  const left = paths.filter((p) => !results.has(p))
  if (left.length > 0) {
    const deps = await fleetDeps(fleet.config)
    for (const path of left) finish(path, await evaluatePath(path, fleet, deps))
  }
  return { results, stats: stats(entry.href === TSX_WORKER_ENTRY.href ? 'tsx' : 'bundle', workers) }
}
