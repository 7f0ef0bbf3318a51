/**
 * Typed client for the engine worker: one request id and one promise per request, stale replies
 * dropped. Only the newest request matters to the UI: starting a load (or a re-count) makes every
 * earlier request stale — its promises reject with `StaleError` and the worker is told to cancel.
 * A run makes only earlier runs stale: it may start while the load's exact count is still under
 * way (the worker waits for that count and prices the run with it).
 */
import type { TokenizerId } from '../engine/tokens/types.ts'
import type { CsvColumn } from '../export/reports.ts'
import {
  PROTOCOL_VERSION,
  type ComparedMessage,
  type CountedMessage,
  type ConfigExportTarget,
  type DescribedMessage,
  type ExportFile,
  type GroupDetail,
  type SweptMessage,
  type FromWorker,
  type LoadedMessage,
  type ProgressMessage,
  type RunSummary,
  type ToWorker,
} from './protocol.ts'
import {
  ConfigInvalidError,
  StaleError,
  type CountRequest,
  type LoadOptions,
  type LoadRequest,
  quiet,
  type LoadPending,
  type Pending,
  type RunOptions,
  type RunPending,
  type RunRequest,
  type SideChannel,
  type SidePending,
  type SideRequest,
  type WorkerLike,
} from './client-types.ts'

/** `Omit` over each member of a union (plain `Omit` would merge the members). */
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never

export {
  ConfigInvalidError,
  isStale,
  StaleError,
  type ConfigIssue,
  type CountRequest,
  type LoadOptions,
  type LoadRequest,
  type RunOptions,
  type RunRequest,
  type SideChannel,
  type SideRequest,
  type WorkerLike,
} from './client-types.ts'

function defaultWorker(): WorkerLike {
  return new Worker(new URL('./engine.worker.ts', import.meta.url), {
    type: 'module',
    name: 'compaction-lab-engine',
  })
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
  load(input: string | ArrayBuffer, options: LoadOptions = {}): LoadRequest {
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
      kind: 'load',
      onProgress: options.onProgress,
      resolveLoaded,
      resolveCounted,
      reject: (error) => {
        rejectLoaded(error)
        rejectCounted(error)
      },
    })
    const common = {
      type: 'load',
      id,
      fileName: options.fileName,
      format: options.format,
      ...(options.item !== undefined ? { item: options.item } : {}),
    } as const
    if (typeof input === 'string') this.send({ ...common, text: input })
    else this.send({ ...common, bytes: input }, [input])
    return { id, loaded, counted }
  }

  /** Re-count the latest loaded conversation with another tokenizer. */
  count(tokenizer: TokenizerId, onProgress?: (progress: ProgressMessage) => void): CountRequest {
    const id = this.begin()
    const counted = quiet(
      new Promise<CountedMessage | null>((resolve, reject) => {
        this.pending.set(id, { kind: 'load', onProgress, resolveCounted: resolve, reject })
      }),
    )
    this.send({ type: 'count', id, tokenizer })
    return { id, counted }
  }

  /**
   * Run a compaction config (our versioned JSON as an object or text; or `options.preset`) on the
   * latest load. Earlier runs become stale; a load or count under way does not.
   */
  run(config: unknown, options: RunOptions = {}): RunRequest {
    for (const [pendingId, entry] of [...this.pending]) {
      if (entry.kind === 'run') this.cancel(pendingId)
    }
    const id = this.nextId++
    const promise = quiet(
      new Promise<RunSummary>((resolve, reject) => {
        this.pending.set(id, {
          kind: 'run',
          onProgress: options.onProgress,
          onReplayProgress: options.onReplayProgress,
          onReplay: options.onReplay,
          resolve,
          reject,
        })
      }),
    )
    this.send({
      type: 'run',
      id,
      config,
      ...(options.preset !== undefined ? { preset: options.preset } : {}),
      replay: options.replay ?? false,
    })
    return { id, promise, cancel: () => this.cancel(id) }
  }

  /**
   * One group before/after the latest run; a newer detail request of the same channel makes this
   * one stale. The table's expanded rows use the `rows` channel so they never cancel the drawer's.
   */
  detail(
    groupId: string,
    maxChars: number,
    channel: 'detail' | 'rows' = 'detail',
  ): SideRequest<GroupDetail> {
    return this.side(channel, { type: 'detail', groupId, maxChars }, (m) =>
      m.type === 'detailed' ? m.detail : undefined,
    )
  }

  /** Presets, strategies and the config JSON Schema, for the config editor. */
  describe(): SideRequest<DescribedMessage> {
    return this.side('describe', { type: 'describe' }, (m) =>
      m.type === 'described' ? m : undefined,
    )
  }

  /** Sweep one numeric parameter of `config` over `values`; rejects with `ConfigInvalidError`. */
  sweep(
    config: unknown,
    path: string,
    values: readonly number[],
    onProgress?: (done: number, total: number) => void,
    withCost = false,
  ): SideRequest<SweptMessage> {
    return this.side(
      'sweep',
      { type: 'sweep', config, path, values, ...(withCost ? { withCost: true } : {}) },
      (m) => (m.type === 'swept' ? m : undefined),
      onProgress,
    )
  }

  /** Run two configs and list the groups they decide differently about. */
  compare(a: unknown, b: unknown): SideRequest<ComparedMessage> {
    return this.side('compare', { type: 'compare', a, b }, (m) =>
      m.type === 'compared' ? m : undefined,
    )
  }

  /**
   * A config (or `preset`) as a file for a target system or as our versioned JSON; rejects with
   * `ConfigInvalidError`. Export requests share one channel: the dialog shows one file at a time.
   */
  exportConfig(
    config: unknown,
    target: ConfigExportTarget,
    preset?: string,
  ): SideRequest<ExportFile> {
    return this.side(
      'export',
      { type: 'exportConfig', config, target, ...(preset !== undefined ? { preset } : {}) },
      (m) => (m.type === 'exported' ? m.file : undefined),
    )
  }

  /** The latest run's compacted transcript in the loaded transcript's own format. */
  exportTranscript(): SideRequest<ExportFile> {
    return this.side('export', { type: 'exportTranscript' }, (m) =>
      m.type === 'exported' ? m.file : undefined,
    )
  }

  /** The latest run's JSON report or decisions CSV (with the chosen columns). */
  exportReport(format: 'json' | 'csv', columns?: readonly CsvColumn[]): SideRequest<ExportFile> {
    const msg = { type: 'exportReport' as const, format, ...(columns ? { columns } : {}) }
    return this.side('export', msg, (m) => (m.type === 'exported' ? m.file : undefined))
  }

  /** Validate a config file's text; resolves with our current JSON, rejects with `ConfigInvalidError`. */
  importConfig(text: string): SideRequest<{ readonly config: unknown }> {
    // Wrapped: `side` reads `undefined` as "not this reply", so the config cannot be the value.
    return this.side('export', { type: 'importConfig', text }, (m) =>
      m.type === 'configImported' ? { config: m.config } : undefined,
    )
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

  private side<T>(
    channel: SideChannel,
    message: DistributiveOmit<ToWorker, 'id'>,
    pick: (message: FromWorker) => T | undefined,
    onProgress?: (done: number, total: number) => void,
  ): SideRequest<T> {
    for (const [pendingId, entry] of [...this.pending]) {
      if (entry.kind === 'side' && entry.channel === channel) this.cancel(pendingId)
    }
    const id = this.nextId++
    const promise = quiet(
      new Promise<T>((resolve, reject) => {
        this.pending.set(id, {
          kind: 'side',
          channel,
          onProgress,
          accept: (reply) => {
            const value = pick(reply)
            if (value === undefined) return false
            resolve(value)
            return true
          },
          reject,
        })
      }),
    )
    this.send({ ...message, id } as ToWorker)
    return { id, promise, cancel: () => this.cancel(id) }
  }

  private begin(): number {
    // Only the newest request is wanted: everything still pending is stale now.
    for (const id of [...this.pending.keys()]) this.cancel(id)
    return this.nextId++
  }

  private send(message: ToWorker, transfer?: Transferable[]): void {
    if (transfer) this.ensureWorker().postMessage(message, transfer)
    else this.ensureWorker().postMessage(message)
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
    if (message.type === 'error') {
      this.fail(message, entry)
      return
    }
    // Each kind takes its own reply types; any other reply to its id would be a worker bug and
    // is ignored (the request's own replies still come).
    switch (entry.kind) {
      case 'load':
        return this.receiveLoad(message, entry)
      case 'run':
        return this.receiveRun(message, entry)
      case 'side':
        return this.receiveSide(message, entry)
      default: {
        const unknownEntry: never = entry
        return unknownEntry
      }
    }
  }

  private receiveLoad(message: FromWorker, entry: LoadPending): void {
    if (message.type === 'progress') {
      entry.onProgress?.(message)
    } else if (message.type === 'loaded') {
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
    } else if (message.type === 'counted') {
      this.pending.delete(message.id)
      entry.resolveCounted(message)
    }
  }

  private receiveRun(message: FromWorker, entry: RunPending): void {
    if (message.type === 'runProgress') {
      entry.onProgress?.(message)
    } else if (message.type === 'ran') {
      // With a replay to follow, the request stays pending (and cancellable) until it arrives.
      if (!message.summary.replayPending) this.pending.delete(message.id)
      entry.resolve(message.summary)
    } else if (message.type === 'replayProgress') {
      entry.onReplayProgress?.(message.done, message.total)
    } else if (message.type === 'replayed') {
      this.pending.delete(message.id)
      entry.onReplay?.(message.replay)
    } else if (message.type === 'configInvalid') {
      this.pending.delete(message.id)
      entry.reject(new ConfigInvalidError(message.issues))
    }
  }

  private receiveSide(message: FromWorker, entry: SidePending): void {
    if (message.type === 'sweepProgress') {
      entry.onProgress?.(message.done, message.total)
    } else if (message.type === 'configInvalid') {
      this.pending.delete(message.id)
      entry.reject(new ConfigInvalidError(message.issues))
    } else if (entry.accept(message)) {
      this.pending.delete(message.id)
    }
  }

  private fail(message: Extract<FromWorker, { type: 'error' }>, entry: Pending): void {
    this.pending.delete(message.id)
    const where = message.line !== undefined ? ` (line ${message.line})` : ''
    entry.reject(new Error(message.message + where))
  }
}
