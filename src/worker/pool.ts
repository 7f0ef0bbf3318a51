/**
 * A pool of fleet workers (issue 16): `navigator.hardwareConcurrency − 1` of them (at least one),
 * one slot left for the UI, each behind its own `WorkerClient` (the engine worker's transport).
 * Files queue here; each idle worker takes the next. A file's failure is its own outcome and never
 * stops the rest (a crashed worker fails its file; its client starts a fresh one for the next);
 * `cancelAll` drops the queue and stops the files under way. Nothing leaves the browser: workers
 * receive the bytes, reply with rows.
 */
import type { ConfigIssue } from '../config/validate.ts'
import type { FleetOutcome } from '../fleet/types.ts'
import {
  ConfigInvalidError,
  isStale,
  WorkerClient,
  WorkerCrashedError,
  type WorkerLike,
} from './client.ts'
import type { FleetRequestMap } from './protocol.ts'

/** One file: the `evaluate` request's params, its bytes read only when a worker takes it. */
export type FleetTask = Omit<FleetRequestMap['evaluate']['params'], 'bytes'> & {
  /**
   * Read when a worker takes the task, so a queue of 10,000 files holds no bytes. A Blob (a picked
   * file) is handed to the worker as it is: the worker reads it, off the page's main thread.
   */
  readonly read: () => Promise<ArrayBuffer | Blob>
  readonly onProgress?: (done: number, total: number) => void
  readonly onStart?: () => void
}

export type FleetTaskResult =
  | { readonly kind: 'evaluated'; readonly outcomes: readonly FleetOutcome[] }
  | { readonly kind: 'invalid'; readonly issues: readonly ConfigIssue[] }
  | { readonly kind: 'cancelled' }

interface Queued {
  readonly task: FleetTask
  readonly abort: AbortController
  readonly resolve: (result: FleetTaskResult) => void
}

interface Slot {
  readonly client: WorkerClient<FleetRequestMap>
  running: Queued | null
}

export function defaultPoolSize(): number {
  const cores = typeof navigator === 'undefined' ? 2 : (navigator.hardwareConcurrency ?? 2)
  return Math.max(1, cores - 1)
}

function defaultFleetWorker(): WorkerLike<FleetRequestMap> {
  return new Worker(new URL('./fleet.worker.ts', import.meta.url), {
    type: 'module',
    name: 'compaction-lab-fleet',
  })
}

const failed = (name: string, message: string): FleetTaskResult => ({
  kind: 'evaluated',
  outcomes: [{ kind: 'failed', failure: { name, message } }],
})

const why = (error: unknown) => (error instanceof Error ? error.message : String(error))

/** How a file's request ended, as the fleet view shows it. */
function resultOf(name: string, error: unknown): FleetTaskResult {
  if (isStale(error)) return { kind: 'cancelled' }
  if (error instanceof ConfigInvalidError) return { kind: 'invalid', issues: error.issues }
  if (error instanceof WorkerCrashedError) return failed(name, `worker failed: ${error.message}`)
  return failed(name, `internal error: ${why(error)}`)
}

export class FleetPool {
  private readonly slots: Slot[]
  private readonly queue: Queued[] = []
  readonly size: number

  constructor(
    size: number = defaultPoolSize(),
    createWorker: () => WorkerLike<FleetRequestMap> = defaultFleetWorker,
  ) {
    this.size = Math.max(1, size)
    this.slots = Array.from({ length: this.size }, () => ({
      client: new WorkerClient<FleetRequestMap>(createWorker, { lanes: { evaluate: 'file' } }),
      running: null,
    }))
  }

  /** Queue one file; resolves with its outcomes, `invalid` (config) or `cancelled`. Never rejects. */
  evaluate(task: FleetTask): Promise<FleetTaskResult> {
    return new Promise((resolve) => {
      this.queue.push({ task, abort: new AbortController(), resolve })
      this.pump()
    })
  }

  /** Drop every queued file and stop the ones under way (each resolves `cancelled`). */
  cancelAll(): void {
    for (const q of this.queue.splice(0)) q.resolve({ kind: 'cancelled' })
    for (const slot of this.slots) slot.running?.abort.abort()
  }

  /** Files waiting or under way. */
  get pending(): number {
    return this.queue.length + this.slots.filter((s) => s.running).length
  }

  dispose(): void {
    this.cancelAll()
    for (const slot of this.slots) {
      slot.running?.resolve({ kind: 'cancelled' })
      slot.running = null
      slot.client.dispose()
    }
  }

  private pump(): void {
    for (const slot of this.slots) {
      if (slot.running) continue
      const next = this.queue.shift()
      if (!next) return
      void this.start(slot, next)
    }
  }

  private async start(slot: Slot, queued: Queued): Promise<void> {
    slot.running = queued
    const { task, abort } = queued
    task.onStart?.()
    const result = await task.read().then(
      (bytes) => this.post(slot, task, bytes, abort.signal),
      (error: unknown) => failed(task.name, `cannot read: ${why(error)}`),
    )
    if (slot.running === queued) slot.running = null
    queued.resolve(result)
    this.pump()
  }

  private post(
    slot: Slot,
    task: FleetTask,
    bytes: ArrayBuffer | Blob,
    signal: AbortSignal,
  ): Promise<FleetTaskResult> {
    const { name, config, preset, onProgress } = task
    const params = { name, bytes, config, ...(preset ? { preset } : {}) }
    return slot.client
      .request('evaluate', params, {
        signal,
        ...(onProgress ? { onProgress: (p) => onProgress(p.done, p.total) } : {}),
      })
      .then(
        (outcomes): FleetTaskResult => ({ kind: 'evaluated', outcomes }),
        (error: unknown) => resultOf(name, error),
      )
  }
}
