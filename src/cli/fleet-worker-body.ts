import { parentPort, workerData } from 'node:worker_threads'
import type { FleetConfig } from '../fleet/evaluate.ts'
import { evaluatePath, fleetDeps } from './fleet-task.ts'
import type { PoolReply, PoolTask } from './fleet-pool.ts'
import { threadTimes } from './thread-cpu.ts'

/**
 * One pool worker: loads the tokenizer once, then evaluates the paths it is sent, one at a time,
 * replying with every outcome of each (the pool hands out the next path on each reply). Each
 * reply carries this thread's CPU time so far, for the pool's CPU split.
 */
const port = parentPort
if (!port) throw new Error('fleet-worker-body.ts runs only as a worker thread')
const fleet = (workerData as { fleet: FleetConfig }).fleet
const deps = await fleetDeps(fleet.config)
port.on('message', (task: PoolTask) => {
  void evaluatePath(task.path, fleet, deps).then(
    (outcomes) =>
      port.postMessage({
        kind: 'done',
        id: task.id,
        outcomes,
        times: threadTimes(),
      } satisfies PoolReply),
    (error: unknown) =>
      port.postMessage({
        kind: 'error',
        id: task.id,
        message: error instanceof Error ? error.message : String(error),
        times: threadTimes(),
      } satisfies PoolReply),
  )
})
port.postMessage({ kind: 'ready', times: threadTimes() } satisfies PoolReply)
