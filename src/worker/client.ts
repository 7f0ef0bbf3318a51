/**
 * Typed client for the engine worker: one request id and one promise per request, stale replies
 * dropped. Only the newest request matters to the UI: starting a load (or a re-count) makes every
 * earlier request stale — its promises reject with `StaleError` and the worker is told to cancel.
 */
import type { FormatId } from '../engine/model.ts'
import type { TokenizerId } from '../engine/tokens/types.ts'
import {
  PROTOCOL_VERSION,
  type CountedMessage,
  type FromWorker,
  type LoadedMessage,
  type ProgressMessage,
  type ToWorker,
} from './protocol.ts'

/** The request was overtaken by a newer one or cancelled; callers simply ignore it. */
export class StaleError extends Error {
  readonly stale = true
  constructor(id: number) {
    super(`request ${id} was superseded`)
    this.name = 'StaleError'
  }
}

export function isStale(error: unknown): error is StaleError {
  return error instanceof StaleError
}

export interface LoadOptions {
  readonly fileName?: string
  readonly format?: FormatId
  readonly onProgress?: (progress: ProgressMessage) => void
}

export interface LoadRequest {
  readonly id: number
  /** Detection, warnings and the instant estimate (or the parse error). */
  readonly loaded: Promise<LoadedMessage>
  /** The exact report; null when the load failed so there is nothing to count. */
  readonly counted: Promise<CountedMessage | null>
}

export interface CountRequest {
  readonly id: number
  readonly counted: Promise<CountedMessage | null>
}

interface Pending {
  readonly onProgress?: (progress: ProgressMessage) => void
  readonly resolveLoaded?: (message: LoadedMessage) => void
  readonly resolveCounted: (message: CountedMessage | null) => void
  readonly reject: (error: Error) => void
}

/** The smallest part of `Worker` we use, so tests can pass a fake. */
export interface WorkerLike {
  postMessage(message: ToWorker): void
  onmessage: ((event: MessageEvent<FromWorker>) => void) | null
  onerror: ((event: ErrorEvent) => void) | null
  terminate(): void
}

function defaultWorker(): WorkerLike {
  return new Worker(new URL('./engine.worker.ts', import.meta.url), {
    type: 'module',
    name: 'compaction-lab-engine',
  })
}

/** A promise that rejects silently until someone awaits it (no "unhandled rejection" noise). */
function quiet<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined)
  return promise
}

export class EngineClient {
  private worker: WorkerLike | null = null
  private nextId = 1
  private readonly pending = new Map<number, Pending>()
  private readonly createWorker: () => WorkerLike

  constructor(createWorker: () => WorkerLike = defaultWorker) {
    this.createWorker = createWorker
  }

  /** Parse `text` in the worker; everything requested before becomes stale. */
  load(text: string, options: LoadOptions = {}): LoadRequest {
    const id = this.begin()
    let resolveLoaded: (message: LoadedMessage) => void = () => undefined
    let resolveCounted: (message: CountedMessage | null) => void = () => undefined
    let rejectLoaded: (error: Error) => void = () => undefined
    let rejectCounted: (error: Error) => void = () => undefined
    const loaded = quiet(
      new Promise<LoadedMessage>((resolve, reject) => {
        resolveLoaded = resolve
        rejectLoaded = reject
      }),
    )
    const counted = quiet(
      new Promise<CountedMessage | null>((resolve, reject) => {
        resolveCounted = resolve
        rejectCounted = reject
      }),
    )
    this.pending.set(id, {
      onProgress: options.onProgress,
      resolveLoaded,
      resolveCounted,
      reject: (error) => {
        rejectLoaded(error)
        rejectCounted(error)
      },
    })
    this.send({ type: 'load', id, text, fileName: options.fileName, format: options.format })
    return { id, loaded, counted }
  }

  /** Re-count the latest loaded conversation with another tokenizer. */
  count(tokenizer: TokenizerId, onProgress?: (progress: ProgressMessage) => void): CountRequest {
    const id = this.begin()
    const counted = quiet(
      new Promise<CountedMessage | null>((resolve, reject) => {
        this.pending.set(id, { onProgress, resolveCounted: resolve, reject })
      }),
    )
    this.send({ type: 'count', id, tokenizer })
    return { id, counted }
  }

  /** Abandon a request: its promises reject with `StaleError`, the worker stops at its next phase. */
  cancel(id: number): void {
    const entry = this.pending.get(id)
    if (!entry) return
    this.pending.delete(id)
    entry.reject(new StaleError(id))
    this.send({ type: 'cancel', id })
  }

  dispose(): void {
    for (const id of [...this.pending.keys()]) this.cancel(id)
    this.worker?.terminate()
    this.worker = null
  }

  private begin(): number {
    // Only the newest request is wanted: everything still pending is stale now.
    for (const id of [...this.pending.keys()]) this.cancel(id)
    return this.nextId++
  }

  private send(message: ToWorker): void {
    this.ensureWorker().postMessage(message)
  }

  private ensureWorker(): WorkerLike {
    if (this.worker) return this.worker
    const worker = this.createWorker()
    worker.onmessage = (event) => this.receive(event.data)
    worker.onerror = (event) => {
      // The worker script itself failed (load error or uncaught exception): fail every request.
      event.preventDefault()
      this.failAll(event.message || 'the engine worker failed to start')
      worker.terminate()
      if (this.worker === worker) this.worker = null
    }
    this.worker = worker
    return worker
  }

  private failAll(message: string): void {
    for (const [id, entry] of this.pending) {
      this.pending.delete(id)
      entry.reject(new Error(message))
    }
  }

  private receive(message: FromWorker): void {
    // Replies to requests we no longer track are stale: drop them.
    const entry = this.pending.get(message.id)
    if (!entry) return
    switch (message.type) {
      case 'progress':
        entry.onProgress?.(message)
        return
      case 'loaded':
        if (message.protocol !== PROTOCOL_VERSION) {
          this.pending.delete(message.id)
          entry.reject(
            new Error(
              `engine worker speaks protocol ${message.protocol}, expected ${PROTOCOL_VERSION}`,
            ),
          )
          return
        }
        entry.resolveLoaded?.(message)
        if (message.error) {
          // Nothing was parsed, so no exact count will follow.
          this.pending.delete(message.id)
          entry.resolveCounted(null)
        }
        return
      case 'counted':
        this.pending.delete(message.id)
        entry.resolveCounted(message)
        return
      case 'error': {
        this.pending.delete(message.id)
        const where = message.line !== undefined ? ` (line ${message.line})` : ''
        entry.reject(new Error(message.message + where))
        return
      }
      default: {
        const unknownMessage: never = message
        return unknownMessage
      }
    }
  }
}
