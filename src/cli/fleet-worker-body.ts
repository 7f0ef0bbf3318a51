import { parentPort, workerData } from 'node:worker_threads'
import type { FleetConfig } from '../fleet/evaluate.ts'
import { evaluatePath, fleetDeps } from './fleet-task.ts'
import type { PoolReply, PoolTask } from './fleet-pool.ts'

/**
 * One pool worker: loads the tokenizer once, then evaluates the paths it is sent, one at a time,
 * replying with every outcome of each (the pool hands out the next path on each reply).
 */
const port = parentPort
if (!port) throw new Error('fleet-worker-body.ts runs only as a worker thread')
const fleet = (workerData as { fleet: FleetConfig }).fleet
const deps = await fleetDeps(fleet.config)
port.on('message', (task: PoolTask) => {
  void evaluatePath(task.path, fleet, deps).then(
    (outcomes) => port.postMessage({ kind: 'done', id: task.id, outcomes } satisfies PoolReply),
    (error: unknown) =>
      port.postMessage({
        kind: 'error',
        id: task.id,
        message: error instanceof Error ? error.message : String(error),
      } satisfies PoolReply),
  )
})
port.postMessage({ kind: 'ready' } satisfies PoolReply)
