import { Worker } from 'node:worker_threads'
import type { FleetConfig } from '../fleet/evaluate.ts'
import type { FleetOutcome } from '../fleet/types.ts'
import { evaluatePath, fleetDeps } from './fleet-task.ts'

export interface PoolTask {
  readonly id: number
  readonly path: string
}

export type PoolReply =
  | { readonly kind: 'ready' }
  | { readonly kind: 'done'; readonly id: number; readonly outcomes: FleetOutcome[] }
  | { readonly kind: 'error'; readonly id: number; readonly message: string }

/** Called as each file finishes, in completion order. */
export type OnFileDone = (path: string, outcomes: readonly FleetOutcome[]) => void

const WORKER_URL = new URL('./fleet-worker.mjs', import.meta.url)

/**
 * Evaluate every path: `jobs` 1 runs in this thread (no worker start-up, the same code path);
 * more runs a pool of that many worker threads, each pulling the next path when it finishes one
 * (long and short sessions balance themselves). A worker that dies fails only the file it held;
 * the rest go on in the others. Outcomes come back keyed by path.
 */
export async function evaluatePaths(
  paths: readonly string[],
  fleet: FleetConfig,
  jobs: number,
  onDone: OnFileDone,
): Promise<Map<string, readonly FleetOutcome[]>> {
  const results = new Map<string, readonly FleetOutcome[]>()
  const finish = (path: string, outcomes: readonly FleetOutcome[]) => {
    results.set(path, outcomes)
    onDone(path, outcomes)
  }
  if (jobs <= 1 || paths.length <= 1) {
    const deps = await fleetDeps(fleet.config)
    for (const path of paths) finish(path, await evaluatePath(path, fleet, deps))
    return results
  }
  let next = 0
  const size = Math.min(jobs, paths.length)
  const runWorker = () =>
    new Promise<void>((resolve) => {
      const worker = new Worker(WORKER_URL, { workerData: { fleet } })
      let held: PoolTask | null = null
      const give = () => {
        if (next >= paths.length) {
          held = null
          void worker.terminate().then(() => resolve())
          return
        }
        held = { id: next, path: paths[next] as string }
        next++
        worker.postMessage(held)
      }
      worker.on('message', (reply: PoolReply) => {
        if (reply.kind === 'ready') return give()
        const path = paths[reply.id] as string
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
        if (!held) return resolve()
        // The worker is gone: its file fails, the others carry on in a fresh worker, so a file
        // that crashes one cannot starve the queue.
        {
          finish(held.path, [
            {
              kind: 'failed',
              failure: { name: held.path, message: `worker crashed: ${error.message}` },
            },
          ])
          held = null
        }
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
  return results
}
