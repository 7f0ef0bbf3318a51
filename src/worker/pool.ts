/**
 * A pool of fleet workers (issue 16): `navigator.hardwareConcurrency − 1` of them (at least one),
 * one slot left for the UI. Files queue here; each idle worker takes the next. A file's failure
 * is its own outcome and never stops the rest; `cancelAll` drops the queue and stops the files
 * under way. Nothing leaves the browser: workers receive the bytes, reply with rows.
 */
import type { ConfigIssue } from '../config/validate.ts'
import type { FleetOutcome } from '../fleet/types.ts'
import type { FromFleetWorker, ToFleetWorker } from './fleet-protocol.ts'

export interface FleetWorkerLike {
  postMessage(message: ToFleetWorker, transfer?: Transferable[]): void
  onmessage: ((event: MessageEvent<FromFleetWorker>) => void) | null
  onerror: ((event: ErrorEvent) => void) | null
  terminate(): void
}

export interface FleetTask {
  readonly name: string
  /**
   * Read when a worker takes the task, so a queue of 10,000 files holds no bytes. A Blob (a picked
   * file) is handed to the worker as it is: the worker reads it, off the page's main thread.
   */
  readonly read: () => Promise<ArrayBuffer | Blob>
  readonly config: unknown
  readonly preset?: string
  readonly onProgress?: (done: number, total: number) => void
  readonly onStart?: () => void
}

export type FleetTaskResult =
  | { readonly kind: 'evaluated'; readonly outcomes: readonly FleetOutcome[] }
  | { readonly kind: 'invalid'; readonly issues: readonly ConfigIssue[] }
  | { readonly kind: 'cancelled' }

interface Queued {
  /** Set once the bytes went to a worker (before that, a cancel settles it here). */
  posted: boolean
  readonly id: number
  readonly task: FleetTask
  readonly resolve: (result: FleetTaskResult) => void
}

interface Slot {
  worker: FleetWorkerLike | null
  running: Queued | null
}

export function defaultPoolSize(): number {
  const cores = typeof navigator === 'undefined' ? 2 : (navigator.hardwareConcurrency ?? 2)
  return Math.max(1, cores - 1)
}

function defaultFleetWorker(): FleetWorkerLike {
  return new Worker(new URL('./fleet.worker.ts', import.meta.url), {
    type: 'module',
    name: 'compaction-lab-fleet',
  })
}

export class FleetPool {
  private readonly slots: Slot[]
  private readonly queue: Queued[] = []
  private nextId = 1
  readonly size: number
  private readonly createWorker: () => FleetWorkerLike

  constructor(
    size: number = defaultPoolSize(),
    createWorker: () => FleetWorkerLike = defaultFleetWorker,
  ) {
    this.size = Math.max(1, size)
    this.createWorker = createWorker
    this.slots = Array.from({ length: Math.max(1, size) }, () => ({ worker: null, running: null }))
  }

  /** Queue one file; resolves with its outcomes, `invalid` (config) or `cancelled`. Never rejects. */
  evaluate(task: FleetTask): Promise<FleetTaskResult> {
    return new Promise((resolve) => {
      this.queue.push({ posted: false, id: this.nextId++, task, resolve })
      this.pump()
    })
  }

  /** Drop every queued file and stop the ones under way (each resolves `cancelled`). */
  cancelAll(): void {
    for (const q of this.queue.splice(0)) q.resolve({ kind: 'cancelled' })
    for (const slot of this.slots) {
      if (slot.running && slot.worker)
        slot.worker.postMessage({ type: 'cancel', id: slot.running.id })
    }
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
      slot.worker?.terminate()
      slot.worker = null
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

  private workerOf(slot: Slot): FleetWorkerLike {
    if (slot.worker) return slot.worker
    const worker = this.createWorker()
    worker.onmessage = (event) => this.onMessage(slot, event.data)
    worker.onerror = (event) => {
      // The worker died: its file fails with the reason, a fresh worker takes the next file.
      event.preventDefault?.()
      const running = slot.running
      slot.worker?.terminate()
      slot.worker = null
      slot.running = null
      running?.resolve({
        kind: 'evaluated',
        outcomes: [
          {
            kind: 'failed',
            failure: { name: running.task.name, message: `worker failed: ${event.message}` },
          },
        ],
      })
      this.pump()
    }
    slot.worker = worker
    return worker
  }

  private async start(slot: Slot, queued: Queued): Promise<void> {
    slot.running = queued
    queued.task.onStart?.()
    let bytes: ArrayBuffer | Blob
    try {
      bytes = await queued.task.read()
    } catch (error) {
      this.finish(slot, queued, {
        kind: 'evaluated',
        outcomes: [
          {
            kind: 'failed',
            failure: {
              name: queued.task.name,
              message: `cannot read: ${error instanceof Error ? error.message : String(error)}`,
            },
          },
        ],
      })
      return
    }
    if (slot.running !== queued) return // cancelled while reading
    queued.posted = true
    this.workerOf(slot).postMessage(
      {
        type: 'evaluate',
        id: queued.id,
        name: queued.task.name,
        bytes,
        config: queued.task.config,
        ...(queued.task.preset ? { preset: queued.task.preset } : {}),
      },
      bytes instanceof ArrayBuffer ? [bytes] : [],
    )
  }

  private onMessage(slot: Slot, message: FromFleetWorker): void {
    const running = slot.running
    if (!running || running.id !== message.id) return // a reply to a task already settled
    switch (message.type) {
      case 'progress':
        running.task.onProgress?.(message.done, message.total)
        return
      case 'evaluated':
        return this.finish(slot, running, { kind: 'evaluated', outcomes: message.outcomes })
      case 'invalid':
        return this.finish(slot, running, { kind: 'invalid', issues: message.issues })
      case 'cancelled':
        return this.finish(slot, running, { kind: 'cancelled' })
      default: {
        const never: never = message
        return never
      }
    }
  }

  private finish(slot: Slot, queued: Queued, result: FleetTaskResult): void {
    if (slot.running === queued) slot.running = null
    queued.resolve(result)
    this.pump()
  }
}
