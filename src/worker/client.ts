/**
 * The client of the engine worker: one `request(kind, params, {signal, onProgress})` that owns
 * request ids, cancels, staleness and errors. Requests of one lane supersede each other (a newer
 * sweep makes the older one stale); a new transcript (`load`, `count`) supersedes every request
 * about the loaded conversation. A superseded or aborted request rejects with `StaleError` and
 * the worker is told to stop; replies to it are dropped.
 */
import {
  PROTOCOL_VERSION,
  type ConfigIssue,
  type FromWorker,
  type Params,
  type ProgressOf,
  type Reply,
  type RequestKind,
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

export interface RequestOptions<K extends RequestKind> {
  /** Aborting makes the request stale (its promise rejects with `StaleError`). */
  readonly signal?: AbortSignal
  readonly onProgress?: (progress: ProgressOf<K>) => void
  /** Requests of one lane supersede each other; default: the kind's own lane (`LANES`). */
  readonly lane?: string
}

/** Each kind's lane. The export dialog shows one file at a time, so its requests share one. */
const LANES: Readonly<Record<RequestKind, string>> = {
  load: 'transcript',
  count: 'transcript',
  run: 'run',
  // A run's follow-ups (asked one after the other): a newer run supersedes them.
  settle: 'run',
  risk: 'run',
  replay: 'run',
  detail: 'detail',
  describe: 'describe',
  sweep: 'sweep',
  compare: 'compare',
  exportConfig: 'export',
  exportTranscript: 'export',
  exportReport: 'export',
  importConfig: 'export',
}

/** Requests that do not depend on the loaded conversation survive a new load. */
const UNBOUND: ReadonlySet<RequestKind> = new Set(['describe', 'exportConfig', 'importConfig'])

interface Pending {
  readonly kind: RequestKind
  readonly lane: string
  readonly onProgress?: (progress: never) => void
  readonly resolve: (reply: never) => void
  readonly reject: (error: Error) => void
}

/** The smallest part of `Worker` we use, so tests can pass a fake. */
export interface WorkerLike {
  postMessage(message: ToWorker, transfer?: Transferable[]): void
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

/** Buffers among the params (a file's or a paste's bytes): transferred, never copied. */
function transferables(params: object): ArrayBuffer[] {
  return Object.values(params).filter((v): v is ArrayBuffer => v instanceof ArrayBuffer)
}

export class EngineClient {
  private worker: WorkerLike | null = null
  private nextId = 1
  private readonly pending = new Map<number, Pending>()
  private readonly createWorker: () => WorkerLike

  constructor(createWorker: () => WorkerLike = defaultWorker) {
    this.createWorker = createWorker
  }

  request<K extends RequestKind>(
    kind: K,
    params: Params<K>,
    options: RequestOptions<K> = {},
  ): Promise<Reply<K>> {
    const lane = options.lane ?? LANES[kind]
    const newTranscript = LANES[kind] === 'transcript'
    for (const [id, entry] of [...this.pending]) {
      if (entry.lane === lane || (newTranscript && !UNBOUND.has(entry.kind))) this.cancel(id)
    }
    const id = this.nextId++
    const promise = new Promise<Reply<K>>((resolve, reject) => {
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
    const message = { kind: 'request', id, request: kind, params } as ToWorker
    const transfer = transferables(params)
    const worker = this.ensureWorker()
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

  private ensureWorker(): WorkerLike {
    if (this.worker) return this.worker
    const worker = this.createWorker()
    worker.onmessage = (event) => this.receive(event.data)
    worker.onerror = (event) => {
      // The worker script itself failed (load error or uncaught exception): fail every request.
      event.preventDefault()
      for (const [id, entry] of this.pending) {
        this.pending.delete(id)
        entry.reject(new Error(event.message || 'the engine worker failed to start'))
      }
      worker.terminate()
      if (this.worker === worker) this.worker = null
    }
    this.worker = worker
    return worker
  }

  private receive(message: FromWorker): void {
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
            new Error(
              `engine worker speaks protocol ${message.protocol}, expected ${PROTOCOL_VERSION}`,
            ),
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
