/**
 * The client of a worker: one `request(kind, params, {signal, onProgress})` that owns request
 * ids, cancels, staleness and errors, for any request map (`WorkerClient<M>`). Requests of one
 * lane supersede each other (a newer sweep makes the older one stale); a request of the
 * new-conversation lane (`load`, `count`) supersedes every request about the loaded one. A
 * superseded or aborted request rejects with `StaleError` and the worker is told to stop; replies
 * to it are dropped. `EngineClient` is the engine worker's; the fleet pool holds N of its own.
 */
import {
  PROTOCOL_VERSION,
  REQUEST_LANES,
  type ConfigIssue,
  type LanePolicy,
  type FromWorker,
  type RequestMap,
  type RequestMapOf,
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

/** The worker refused the config: nothing ran. `issues` says every problem and where. */
export class ConfigInvalidError extends Error {
  readonly issues: readonly ConfigIssue[]
  constructor(issues: readonly ConfigIssue[]) {
    const first = issues[0]
    const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : ''
    super(first ? `invalid config: ${first.path}: ${first.message}${more}` : 'invalid config')
    this.name = 'ConfigInvalidError'
    this.issues = issues
  }
}

/** The worker itself died (its script failed to load, or an uncaught exception). */
export class WorkerCrashedError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'WorkerCrashedError'
  }
}

type ProgressIn<E> = E extends { progress: infer P } ? P : never

export interface RequestOptions<P = unknown> {
  /** Aborting makes the request stale (its promise rejects with `StaleError`). */
  readonly signal?: AbortSignal
  readonly onProgress?: (progress: P) => void
  /** Requests of one lane supersede each other; default: the kind's own lane. */
  readonly lane?: string
}

interface Pending {
  readonly kind: PropertyKey
  readonly lane: string
  readonly onProgress?: (progress: never) => void
  readonly resolve: (reply: never) => void
  readonly reject: (error: Error) => void
}

/** The smallest part of `Worker` we use, so tests can pass a fake. */
export interface WorkerLike<M extends RequestMapOf<M> = RequestMap> {
  postMessage(message: ToWorker<M>, transfer?: Transferable[]): void
  onmessage: ((event: MessageEvent<FromWorker<M>>) => void) | null
  onerror: ((event: ErrorEvent) => void) | null
  terminate(): void
}

/** Buffers among the params (a file's or a paste's bytes): transferred, never copied. */
function transferables(params: object): ArrayBuffer[] {
  return Object.values(params).filter((v): v is ArrayBuffer => v instanceof ArrayBuffer)
}

export class WorkerClient<M extends RequestMapOf<M>> {
  private worker: WorkerLike<M> | null = null
  private nextId = 1
  private readonly pending = new Map<number, Pending>()

  private readonly createWorker: () => WorkerLike<M>
  private readonly policy: LanePolicy<keyof M>

  constructor(createWorker: () => WorkerLike<M>, policy: LanePolicy<keyof M>) {
    this.createWorker = createWorker
    this.policy = policy
  }

  request<K extends keyof M & string>(
    kind: K,
    params: M[K]['params'],
    options: RequestOptions<ProgressIn<M[K]>> = {},
  ): Promise<M[K]['reply']> {
    const { lanes, resetLane, unbound } = this.policy
    const lane = options.lane ?? lanes[kind]
    const reset = resetLane !== undefined && lanes[kind] === resetLane
    for (const [id, entry] of [...this.pending]) {
      if (entry.lane === lane || (reset && !unbound?.has(entry.kind as keyof M))) this.cancel(id)
    }
    const id = this.nextId++
    const promise = new Promise<M[K]['reply']>((resolve, reject) => {
      this.pending.set(id, {
        kind,
        lane,
        onProgress: options.onProgress as ((progress: never) => void) | undefined,
        resolve: resolve as (reply: never) => void,
        reject,
      })
    })
    // A rejection nobody awaits (a stale request) is not an error worth reporting.
    promise.catch(() => undefined)
    const { signal } = options
    if (signal?.aborted) {
      this.cancel(id)
      return promise
    }
    signal?.addEventListener('abort', () => this.cancel(id), { once: true })
    const message = { kind: 'request', id, request: kind, params } as ToWorker<M>
    const transfer = transferables(params)
    const worker = this.start()
    if (transfer.length > 0) worker.postMessage(message, transfer)
    else worker.postMessage(message)
    return promise
  }

  /** Abandon a request: it rejects with `StaleError`, the worker stops at its next phase. */
  cancel(id: number): void {
    const entry = this.pending.get(id)
    if (!entry) return
    this.pending.delete(id)
    entry.reject(new StaleError(id))
    this.worker?.postMessage({ kind: 'cancel', id })
  }

  dispose(): void {
    for (const id of [...this.pending.keys()]) this.cancel(id)
    this.worker?.terminate()
    this.worker = null
  }

  /** Start the worker now (else the first request does), so its start-up overlaps other work. */
  start(): WorkerLike<M> {
    if (this.worker) return this.worker
    const worker = this.createWorker()
    worker.onmessage = (event) => this.receive(event.data)
    worker.onerror = (event) => {
      // The worker script itself failed: fail every request; the next request starts a new one.
      event.preventDefault()
      const crashed = new WorkerCrashedError(event.message || 'the worker failed to start')
      for (const [id, entry] of this.pending) {
        this.pending.delete(id)
        entry.reject(crashed)
      }
      worker.terminate()
      if (this.worker === worker) this.worker = null
    }
    this.worker = worker
    return worker
  }

  private receive(message: FromWorker<M>): void {
    // Replies to requests we no longer track are stale: drop them.
    const entry = this.pending.get(message.id)
    if (!entry) return
    if (message.kind === 'progress') {
      entry.onProgress?.(message.progress as never)
      return
    }
    this.pending.delete(message.id)
    switch (message.kind) {
      case 'reply':
        if (message.protocol !== PROTOCOL_VERSION) {
          entry.reject(
            new Error(`worker speaks protocol ${message.protocol}, expected ${PROTOCOL_VERSION}`),
          )
        } else entry.resolve(message.reply as never)
        return
      case 'invalid':
        entry.reject(new ConfigInvalidError(message.issues))
        return
      case 'error':
        entry.reject(new Error(message.message))
        return
      default: {
        const unknownMessage: never = message
        return unknownMessage
      }
    }
  }
}

/** The engine worker's client (the lab store holds one). */
export class EngineClient extends WorkerClient<RequestMap> {
  constructor(
    createWorker: () => WorkerLike = () =>
      new Worker(new URL('./engine.worker.ts', import.meta.url), {
        type: 'module',
        name: 'compaction-lab-engine',
      }),
  ) {
    super(createWorker, REQUEST_LANES)
  }
}
