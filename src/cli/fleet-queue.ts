import type { FleetConfig } from '../fleet/evaluate.ts'
import type { FleetOutcome } from '../fleet/types.ts'
import type { ThreadTimes } from './thread-cpu.ts'

/**
 * The pool's shared queue: one `Int32Array` over a SharedArrayBuffer that every lane (the main
 * thread and each worker) reads. Index 0 is the next position in the dispatch order; index
 * 1 + k is the position lane k holds (−1: none), so a worker that dies is known to have held that
 * file. Lanes take files with an atomic add, so a worker never waits for the main thread — which
 * evaluates files itself and answers messages only between its own files — to hand one out.
 */
export const NEXT = 0

/** A queue for `lanes` lanes, every slot empty. */
export function makeQueue(lanes: number): Int32Array {
  const shared = new Int32Array(new SharedArrayBuffer(4 * (1 + lanes)))
  shared.fill(-1, 1)
  return shared
}

/** Take the next position for lane `slot` (recorded as held), or −1 when the queue is empty. */
export function takeNext(shared: Int32Array, slot: number, total: number): number {
  const id = Atomics.add(shared, NEXT, 1)
  const held = id < total ? id : -1
  Atomics.store(shared, 1 + slot, held)
  return held
}

/** The position lane `slot` holds now (−1: none). */
export function heldBy(shared: Int32Array, slot: number): number {
  return Atomics.load(shared, 1 + slot)
}

/** What a pool worker starts with. */
export interface PoolWorkerData {
  readonly fleet: FleetConfig
  /** Every path, in dispatch order (largest first); the queue's positions index it. */
  readonly order: readonly string[]
  readonly queue: SharedArrayBuffer
  /** This worker's lane in the queue. */
  readonly slot: number
}

/** Every reply carries the worker thread's own times so far (null off Linux). */
export type PoolReply =
  /** `startupMs`: the worker's own wall time from its creation (its `performance.now()`). */
  | { readonly kind: 'ready'; readonly startupMs: number; readonly times: ThreadTimes | null }
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
  /**
   * The queue is empty: the worker's last message before it ends. `busyMs`: its own wall time from
   * `ready` to here, measured in the worker (the main thread, a lane itself, reads messages late).
   */
  | { readonly kind: 'finished'; readonly busyMs: number; readonly times: ThreadTimes | null }
