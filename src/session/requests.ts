/**
 * The session's API as the app sees it: `RequestMap[K] = {params, reply, progress?}`, one entry
 * per request a view makes, with the payload docs. Payloads are the session's output types and
 * plain, structured-clone-safe data, so any transport (src/worker) can carry them; this file also
 * says which requests supersede each other (lanes) and what a request handler gets from the
 * transport (`RequestContext`). src/worker/protocol.ts wraps these in its envelope.
 */
import type { FormatId } from '../engine/model.ts'
import type { TokenizerId } from '../engine/tokens/types.ts'
import type { CsvColumn } from '../export/csv-columns.ts'
import type { Outcome } from './session.ts'
import type {
  Compared,
  ConfigExportTarget,
  Counted,
  Described,
  ExportFile,
  GroupDetail,
  Loaded,
  LoadPhase,
  ReplaySeries,
  RunPhase,
  RunRisk,
  RunSummary,
  Sentences,
  Settled,
  Swept,
} from './types.ts'

/** How far a request is: `done` of `total` (phases, model calls or sweep points). */
export interface Progress<P extends string = never> {
  readonly phase?: P
  readonly done: number
  readonly total: number
}

export interface RequestMap {
  /**
   * Detect (unless `format` overrides) and parse; the reply has the instant (chars/4) report.
   * Text or UTF-8 bytes (files and pastes: transferred, decoded in the worker).
   */
  load: {
    params: {
      readonly text?: string
      readonly bytes?: ArrayBuffer
      readonly fileName?: string
      readonly format?: FormatId
      /** Load only this conversation of a multi-item file (0-based; see `LoadedItems`). */
      readonly item?: number
    }
    reply: Loaded
    progress: Progress<LoadPhase>
  }
  /** Price the loaded conversation with a tokenizer; runs from then on use it. */
  count: {
    params: { readonly tokenizer: TokenizerId }
    reply: Counted
    progress: Progress<LoadPhase>
  }
  /** Run a config (our versioned JSON, or a preset id) on the loaded conversation, no replay. */
  run: {
    params: { readonly config: unknown; readonly preset?: string }
    reply: RunSummary
    progress: Progress<RunPhase>
  }
  /**
   * The latest run's removed-then-used risk. A `run` reply leaves it out (`risk: null`) so the
   * budget paints first; the UI asks for it next, before the replay.
   */
  risk: { params: Record<never, never>; reply: RunRisk }
  /**
   * The idempotence round of the latest run, when its summary came `settling` (first round
   * only, so the budget paints sooner): the invariants' last check, or the settled summary.
   */
  settle: { params: Record<never, never>; reply: Settled }
  /** The latest run's replay, model call by model call (the timeline's series). */
  replay: { params: Record<never, never>; reply: ReplaySeries; progress: Progress }
  /**
   * The sentences of decisions of the latest run, by their index in its decision columns: a
   * run's reply leaves them out (they are written when read, issue 14) and a view asks for those
   * it shows. `run` names the columns' run (`WireDecisions.run`): another run makes it stale.
   */
  sentences: {
    params: { readonly run: number; readonly indices: readonly number[] }
    reply: Sentences
  }
  /** One group before and after the latest run (text cut at `maxChars` per part). */
  detail: { params: { readonly groupId: string; readonly maxChars: number }; reply: GroupDetail }
  /** Presets, strategies (params as JSON Schema), the config's JSON Schema and model. */
  describe: { params: Record<never, never>; reply: Described }
  /** Run `config` once per value of the number at `path` (`pipeline[1].params.keep`). */
  sweep: {
    params: {
      readonly config: unknown
      readonly path: string
      readonly values: readonly number[]
      /** Also price each point (a replay per point: slower). */
      readonly withCost?: boolean
    }
    reply: Swept
    progress: Progress
  }
  /** Run two configs and list the groups whose decisions differ. */
  compare: { params: { readonly a: unknown; readonly b: unknown }; reply: Compared }
  /** A config (or `preset`) for a target system, or as our versioned JSON. */
  exportConfig: {
    params: {
      readonly config: unknown
      readonly preset?: string
      readonly target: ConfigExportTarget
    }
    reply: ExportFile
  }
  /** The latest run's compacted transcript, in the loaded transcript's own format. */
  exportTranscript: { params: Record<never, never>; reply: ExportFile }
  /** The latest run's JSON report, or one CSV row per decision with the chosen columns. */
  exportReport: {
    params: { readonly format: 'json' | 'csv'; readonly columns?: readonly CsvColumn[] }
    reply: ExportFile
  }
  /** A config file's text → our current JSON (migrated, validated, defaults filled). */
  importConfig: { params: { readonly text: string }; reply: { readonly config: unknown } }
}

export type RequestKind = keyof RequestMap
export type Params<K extends RequestKind> = RequestMap[K]['params']
export type Reply<K extends RequestKind> = RequestMap[K]['reply']
export type ProgressOf<K extends RequestKind> = RequestMap[K] extends { progress: infer P }
  ? P
  : never

/**
 * The phases a `run` request reports, in order (`done`/`total` count them; the session's
 * `RUN_PHASES` also has `replay`, which is its own request here). Load phases: `LOAD_PHASES`.
 */
export const RUN_REQUEST_PHASES: readonly RunPhase[] = [
  'wait',
  'prepare',
  'compact',
  'summarize',
  'done',
]

/** Which requests supersede which (the client cancels the older ones). */
export interface LanePolicy<K> {
  /** A newer request of a lane makes the older one stale. */
  readonly lanes: Readonly<Record<K & string, string>>
  /** A request of this lane supersedes every pending request except the `unbound` kinds. */
  readonly resetLane?: string
  readonly unbound?: ReadonlySet<K>
}

/**
 * The engine's lanes. The export dialog shows one file at a time, so its requests share one; a
 * run's follow-ups (asked one after the other) share the run's, so a newer run supersedes them.
 * A new conversation (`load`, `count`) supersedes every request about the old one, except those
 * that do not depend on the loaded conversation.
 */
export const REQUEST_LANES: LanePolicy<RequestKind> = {
  lanes: {
    load: 'transcript',
    count: 'transcript',
    run: 'run',
    settle: 'run',
    risk: 'run',
    replay: 'run',
    detail: 'detail',
    sentences: 'sentences',
    describe: 'describe',
    sweep: 'sweep',
    compare: 'compare',
    exportConfig: 'export',
    exportTranscript: 'export',
    exportReport: 'export',
    importConfig: 'export',
  },
  resetLane: 'transcript',
  unbound: new Set(['describe', 'exportConfig', 'importConfig']),
}

/** Any map of requests (the engine's above, the fleet pool's in src/worker/protocol.ts). */
export type RequestMapOf<M> = {
  readonly [K in keyof M]: { params: object; reply: unknown; progress?: Progress<string> }
}

/** What the transport gives a request's handler. */
export interface RequestContext {
  /** False once the client abandoned the request (superseded or cancelled). */
  live(): boolean
  progress(progress: Progress<string>): void
  /** Let queued messages (a cancel, a newer request) in; false once stale, else posts `progress`. */
  checkpoint(progress?: Progress<string>): Promise<boolean>
}

/** One handler per request kind; `stale` posts nothing, the other outcomes are the answer. */
export type RequestHandlers<M extends RequestMapOf<M>> = {
  readonly [K in keyof M]: (
    params: M[K]['params'],
    ctx: RequestContext,
  ) => Outcome<M[K]['reply']> | Promise<Outcome<M[K]['reply']>>
}

/**
 * The path notation issues and sweeps use (`pipeline[2].params.keep`), with the immutable
 * updates the editor builds configs with: pure and dependency-free, part of the API so the UI
 * names a value exactly as validation does.
 */
export * from '../config/path.ts'

/** The decisions CSV's columns, for the Export dialog's picker (the report writer's own list). */
export { CSV_COLUMNS, DEFAULT_CSV_COLUMNS, type CsvColumn } from '../export/csv-columns.ts'

/** The presets' ids (the config layer's own list; their configs come with `describe`). */
export { DEFAULT_PRESET, isPresetId, PRESET_IDS, type PresetId } from '../config/preset-ids.ts'
