import { parentPort, workerData } from 'node:worker_threads'
import { evaluatePath, fleetDeps } from './fleet-task.ts'
import { takeNext, type PoolReply, type PoolWorkerData } from './fleet-queue.ts'
import { threadTimes } from './thread-cpu.ts'

/**
 * One pool worker: loads the tokenizer once, then takes the next path from the pool's shared
 * queue itself (an atomic counter, so no file waits for the main thread — which evaluates files
 * too — to answer a message), replying with every outcome of each. Each reply carries this
 * thread's CPU time so far, for the pool's CPU split.
 */
const port = parentPort
if (!port) throw new Error('fleet-worker-body.ts runs only as a worker thread')
const { fleet, order, queue, slot } = workerData as PoolWorkerData
const shared = new Int32Array(queue)
const deps = await fleetDeps(fleet.config)
const readyAt = performance.now()
port.postMessage({ kind: 'ready', startupMs: readyAt, times: threadTimes() } satisfies PoolReply)
for (let id = takeNext(shared, slot, order.length); id !== -1;) {
  try {
    const outcomes = await evaluatePath(order[id] as string, fleet, deps)
    port.postMessage({ kind: 'done', id, outcomes, times: threadTimes() } satisfies PoolReply)
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    port.postMessage({ kind: 'error', id, message, times: threadTimes() } satisfies PoolReply)
  }
  id = takeNext(shared, slot, order.length)
}
const busyMs = performance.now() - readyAt
port.postMessage({ kind: 'finished', busyMs, times: threadTimes() } satisfies PoolReply)
