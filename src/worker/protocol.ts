/**
 * The one typed boundary between the UI thread and the engine worker: `RequestMap[K] =
 * {params, reply, progress?}`. The client sends `{kind: 'request', id, request: K, params}`; the
 * worker answers with progress events, then one `reply` — or `invalid` (a config's issues with
 * their paths) or `error` — carrying the same id. Payload types are the session's output types;
 * only plain, structured-clone-safe data crosses (typed arrays transferred, not copied).
 */
import type { FormatId } from '../engine/model.ts'
import type { TokenizerId } from '../engine/tokens/types.ts'
import type { CsvColumn } from '../export/csv-columns.ts'
import type {
  Compared,
  ConfigExportTarget,
  ConfigIssue,
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
  Settled,
  Swept,
} from '../session/types.ts'

export type * from '../session/types.ts'

/** Bump when a message shape changes; the client refuses a worker that speaks another version. */
export const PROTOCOL_VERSION = 6

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

/** UI thread → worker. */
export type ToWorker =
  | {
      [K in RequestKind]: {
        readonly kind: 'request'
        readonly id: number
        readonly request: K
        readonly params: Params<K>
      }
    }[RequestKind]
  /** Abandon request `id`: it stops at its next phase and posts nothing more. */
  | { readonly kind: 'cancel'; readonly id: number }

/** Worker → UI thread; every message carries the id of the request it answers. */
export type FromWorker =
  | {
      [K in RequestKind]: {
        readonly kind: 'reply'
        readonly id: number
        readonly request: K
        readonly protocol: number
        readonly reply: Reply<K>
      }
    }[RequestKind]
  | { readonly kind: 'progress'; readonly id: number; readonly progress: Progress<string> }
  /** The config was invalid: every problem with the path where it is; nothing ran. */
  | { readonly kind: 'invalid'; readonly id: number; readonly issues: readonly ConfigIssue[] }
  /** The request failed (nothing loaded, nothing ran, or a bug; bad transcripts come as `Loaded.error`). */
  | { readonly kind: 'error'; readonly id: number; readonly message: string }

/** Load phases in order; `done`/`total` count them so the UI draws one bar across all. */
export const LOAD_PHASES: readonly LoadPhase[] = ['parse', 'estimate', 'tokenizer', 'count', 'done']

/** Run phases in order (the replay is its own request, after the summary). */
export const RUN_PHASES: readonly RunPhase[] = ['wait', 'prepare', 'compact', 'summarize', 'done']

/**
 * The path notation issues and sweeps use (`pipeline[2].params.keep`), with the immutable
 * updates the editor builds configs with: pure and dependency-free, part of the boundary so the
 * UI names a value exactly as validation does.
 */
export * from '../config/path.ts'

/** The decisions CSV's columns, for the Export dialog's picker (the report writer's own list). */
export { CSV_COLUMNS, DEFAULT_CSV_COLUMNS, type CsvColumn } from '../export/csv-columns.ts'

/** The presets' ids (the config layer's own list; their configs come with `describe`). */
export { DEFAULT_PRESET, isPresetId, PRESET_IDS, type PresetId } from '../config/preset-ids.ts'
