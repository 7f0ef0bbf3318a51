// A pool worker for src/cli/fleet-pool.test.ts that takes a file from the shared queue as the
// real one does (src/cli/fleet-queue.ts: index 0 the next position, 1 + slot what the lane holds)
// and then dies, so the pool's crash handling can be tested without a file that crashes the engine.
import { parentPort, workerData } from 'node:worker_threads'

const queue = new Int32Array(workerData.queue)
parentPort.postMessage({ kind: 'ready', startupMs: performance.now(), times: null })
const id = Atomics.add(queue, 0, 1)
if (id >= workerData.order.length) {
  Atomics.store(queue, 1 + workerData.slot, -1)
  parentPort.postMessage({ kind: 'finished', busyMs: 0, times: null })
} else {
  Atomics.store(queue, 1 + workerData.slot, id)
  throw new Error('boom')
}
