import { optimiseWorkersLater } from './v8-flags.ts'
import { Worker } from 'node:worker_threads'
import type { FleetConfig } from '../fleet/evaluate.ts'
import type { FleetOutcome } from '../fleet/types.ts'
import { fleetWorkerEntry, TSX_WORKER_ENTRY } from './fleet-worker-bundle.ts'
import { evaluatePath, fleetDeps } from './fleet-task.ts'
import { heldBy, makeQueue, takeNext, type PoolReply, type PoolWorkerData } from './fleet-queue.ts'
import { threadTimes, type ThreadTimes } from './thread-cpu.ts'

export type { PoolReply } from './fleet-queue.ts'

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
  /** Wall time from its first message to its last (the rest of the pool's wall time it was starting or done). */
  readonly busyMs: number
}

export interface PoolStats {
  readonly jobs: number
  /** `in-thread`: jobs 1; `bundle`: workers on the cached bundle; `tsx`: workers through tsx. */
  readonly entry: 'in-thread' | 'bundle' | 'tsx'
  readonly wallMs: number
  /** The calling thread's CPU over the run: its own files (all of them with jobs 1) and the pool's messages. */
  readonly mainCpuMs: number | null
  /** Files this thread evaluated itself. */
  readonly mainFiles: number
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
 * more runs `jobs − 1` worker threads beside this thread, every lane taking the next path from a
 * shared queue when it finishes one, largest files first so the run does not end on one lane with
 * a big file. This thread is a lane because it already has the engine loaded: with two jobs that
 * is one isolate fewer to start (module load, tokenizer) than two workers. A worker that dies
 * fails only the file it held; the rest go on in a fresh worker and in this thread. Outcomes come
 * back keyed by path (completion order: the report sorts them), with the pool's CPU split.
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
  let mainFiles = 0
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
      mainFiles,
      workers,
    }
  }
  if (jobs <= 1 || paths.length <= 1) {
    const deps = await fleetDeps(fleet.config)
    for (const path of paths) finish(path, await evaluatePath(path, fleet, deps))
    mainFiles = paths.length
    return { results, stats: stats('in-thread', []) }
  }
  const entry = options.entry ?? (await fleetWorkerEntry())
  optimiseWorkersLater()
  const order = largestFirst(paths, options.sizes)
  const lanes = Math.min(jobs, paths.length)
  const queue = makeQueue(lanes)
  const workers: WorkerStats[] = []
  const failHeld = (slot: number, message: string) => {
    const id = heldBy(queue, slot)
    const path = id >= 0 ? (order[id] as string) : null
    // A file whose outcomes arrived before the worker died is done, not failed.
    if (path !== null && !results.has(path))
      finish(path, [{ kind: 'failed', failure: { name: path, message } }])
  }
  const runWorker = (slot: number) =>
    new Promise<void>((resolve) => {
      const created = performance.now()
      const data: PoolWorkerData = { fleet, order, queue: queue.buffer as SharedArrayBuffer, slot }
      const worker = new Worker(entry, { workerData: data })
      const own = { files: 0, startupMs: 0, startupCpuMs: null as number | null, busyMs: 0 }
      let times: ThreadTimes | null = null
      let readyAt = 0
      let closed = false
      const close = () => {
        if (closed) return
        closed = true
        // A worker that died: its busy time as seen from here (its own figure never came).
        if (readyAt > 0 && own.busyMs === 0) own.busyMs = performance.now() - readyAt
        workers.push({ ...own, cpuMs: times?.cpuMs ?? null, waitMs: times?.waitMs ?? null })
      }
      worker.on('message', (reply: PoolReply) => {
        times = reply.times ?? times
        switch (reply.kind) {
          case 'ready':
            readyAt = performance.now()
            // The worker's own figure: this thread, evaluating files too, reads messages late.
            own.startupMs = Math.min(reply.startupMs, readyAt - created)
            own.startupCpuMs = reply.times?.cpuMs ?? null
            return
          case 'done':
            own.files++
            return finish(order[reply.id] as string, reply.outcomes)
          case 'error': {
            own.files++
            const path = order[reply.id] as string
            return finish(path, [
              {
                kind: 'failed',
                failure: { name: path, message: `internal error: ${reply.message}` },
              },
            ])
          }
          case 'finished':
            own.busyMs = reply.busyMs
            close()
            return void worker.terminate().then(() => resolve())
          default: {
            const never: never = reply
            return never
          }
        }
      })
      worker.on('error', (error) => {
        close()
        // A worker that fails before taking a file (start-up) is not replaced: the other lanes,
        // this thread among them, take what it would have.
        if (heldBy(queue, slot) < 0) return resolve()
        // The worker is gone: its file fails, the queue goes on in a fresh worker, so a file that
        // crashes one cannot starve the others.
        failHeld(slot, `worker crashed: ${error.message}`)
        Atomics.store(queue, 1 + slot, -1)
        void runWorker(slot).then(resolve)
      })
      // Ended without 'finished' or an error (process.exit in a dependency): as a crash.
      worker.on('exit', (code) => {
        if (closed) return
        close()
        failHeld(slot, `worker exited with code ${code}`)
        resolve()
      })
    })
  const pending = Array.from({ length: lanes - 1 }, (_, k) => runWorker(k + 1))
  const deps = await fleetDeps(fleet.config)
  for (
    let id = takeNext(queue, 0, order.length);
    id !== -1;
    id = takeNext(queue, 0, order.length)
  ) {
    const path = order[id] as string
    finish(path, await evaluatePath(path, fleet, deps))
    mainFiles++
  }
  await Promise.all(pending)
  return { results, stats: stats(entry.href === TSX_WORKER_ENTRY.href ? 'tsx' : 'bundle', workers) }
}
