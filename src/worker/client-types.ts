/**
 * The client's public types and errors (requests, options, pending entries), apart from the
 * class that routes messages, so `client.ts` stays about behaviour.
 */
import type { FormatId } from '../engine/model.ts'
import type {
  ConfigInvalidMessage,
  CountedMessage,
  FromWorker,
  LoadedMessage,
  ProgressMessage,
  ReplaySeries,
  RunProgressMessage,
  RunSummary,
  ToWorker,
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

/** A problem with a config, at the path where it is (`pipeline[2].params.keep`). */
export type ConfigIssue = ConfigInvalidMessage['issues'][number]

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

export interface LoadOptions {
  readonly fileName?: string
  readonly format?: FormatId
  /** One conversation of a multi-item file (0-based). */
  readonly item?: number
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

export interface RunOptions {
  /** Run this preset (`recommended`, `lip`, …); `config` is then ignored. */
  readonly preset?: string
  /**
   * Also replay the conversation model call by model call. The summary resolves first (with
   * `replayPending`); the replay arrives later through `onReplay`.
   */
  readonly replay?: boolean
  readonly onProgress?: (progress: RunProgressMessage) => void
  readonly onReplayProgress?: (done: number, total: number) => void
  readonly onReplay?: (replay: ReplaySeries) => void
}

export interface RunRequest {
  readonly id: number
  /**
   * The summary; rejects with `ConfigInvalidError` (bad config), `StaleError` (a newer run or
   * load, or `cancel()`), or an `Error` (nothing loaded, or a bug).
   */
  readonly promise: Promise<RunSummary>
  cancel(): void
}

export interface LoadPending {
  readonly kind: 'load'
  readonly onProgress?: (progress: ProgressMessage) => void
  readonly resolveLoaded?: (message: LoadedMessage) => void
  readonly resolveCounted: (message: CountedMessage | null) => void
  readonly reject: (error: Error) => void
}

export interface RunPending {
  readonly kind: 'run'
  readonly onProgress?: (progress: RunProgressMessage) => void
  readonly onReplayProgress?: (done: number, total: number) => void
  readonly onReplay?: (replay: ReplaySeries) => void
  readonly resolve: (summary: RunSummary) => void
  readonly reject: (error: Error) => void
}

/** Requests that live beside loads and runs: a newer one of the same channel makes it stale. */
export type SideChannel = 'detail' | 'rows' | 'describe' | 'sweep' | 'compare' | 'export'

export interface SidePending {
  readonly kind: 'side'
  readonly channel: SideChannel
  readonly onProgress?: (done: number, total: number) => void
  /** Takes the reply it was waiting for; returns false for replies of another type. */
  readonly accept: (message: FromWorker) => boolean
  readonly reject: (error: Error) => void
}

export type Pending = LoadPending | RunPending | SidePending

/** A request of a side channel: its answer, and a way to abandon it. */
export interface SideRequest<T> {
  readonly id: number
  readonly promise: Promise<T>
  cancel(): void
}

/** The smallest part of `Worker` we use, so tests can pass a fake. */
export interface WorkerLike {
  postMessage(message: ToWorker, transfer?: Transferable[]): void
  onmessage: ((event: MessageEvent<FromWorker>) => void) | null
  onerror: ((event: ErrorEvent) => void) | null
  terminate(): void
}

/** A promise that rejects silently until someone awaits it (no "unhandled rejection" noise). */
export function quiet<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined)
  return promise
}
