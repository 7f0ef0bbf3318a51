/**
 * The payloads of the views' requests (detail, describe, sweep, compare, export): plain,
 * structured-clone-safe data. Part of the protocol (`protocol.ts` re-exports every type), kept
 * apart so the message map stays readable.
 */
import type { LossyWarning, TargetId } from '../export/targets/types.ts'
import type { GroupStatus, WireDecision } from './types.ts'
import type { RiskFigures, RiskItem } from './types-risk.ts'

/** An upstream compaction as the timeline and strip draw it. */
export interface WireUpstreamMarker {
  /** Index of the first message after the compaction point. */
  readonly beforeIndex: number
  readonly origin: string
  readonly trigger?: string
  readonly preTokens?: number
  /** The first characters of the upstream summary, if it has one. */
  readonly summary?: string
}

/** One part of one message, as the detail drawer shows it; long text is cut at `maxChars`. */
export interface WirePart {
  readonly kind: 'text' | 'reasoning' | 'tool_call' | 'tool_result' | 'image' | 'file' | 'opaque'
  /** Tool name and call id, media type, … ('' for plain text). */
  readonly label: string
  /** The text (or JSON arguments, or a size line for opaque payloads), at most `maxChars`. */
  readonly text: string
  /** Full length of the text in characters. */
  readonly chars: number
  readonly truncated: boolean
  readonly tokens: number
  /** Set on projected parts that a strategy replaced (stub, trim). */
  readonly replaced?: boolean
  /** A tool call or result the importer read from prose (text-action agents: `DerivedFrom`). */
  readonly derivedFrom?: 'text'
}

export interface WireMessage {
  readonly id: string
  /** Index in the conversation (-1 for inserted summaries and the top-level system prompt). */
  readonly index: number
  readonly role: 'system' | 'user' | 'assistant' | 'tool'
  readonly parts: readonly WirePart[]
  readonly tokens: number
  /** The canonical message as JSON, at most `maxChars` characters. */
  readonly raw: string
  readonly rawChars: number
}

/** Everything the detail drawer needs about one group, before and after the latest run. */
export interface GroupDetail {
  readonly groupId: string
  readonly index: number
  readonly kind: string
  readonly turn: number
  readonly tools: readonly string[]
  readonly resource: string
  readonly status: GroupStatus
  readonly before: readonly WireMessage[]
  /** The group's messages in the projection (empty when excluded); null when nothing ran yet. */
  readonly after: readonly WireMessage[] | null
  /** Summaries the run inserted in place of (part of) this group. */
  readonly summaries: readonly WireMessage[]
  /** Every decision that names this group (protections and skips included), in order. */
  readonly decisions: readonly WireDecision[]
  readonly tokens: { readonly before: number; readonly after: number | null }
  /** The config of the run the `after` side comes from. */
  readonly configName: string | null
  /** Content of this group the run removed and the agent used later; null when none. */
  readonly usedLater: RiskItem | null
}

/** A preset as the config editor offers it. */
export interface WirePreset {
  readonly id: string
  readonly name: string
  readonly description: string
  /** The preset's full config (our versioned JSON, defaults filled). */
  readonly config: unknown
}

/** A strategy as the config editor builds its form: params as JSON Schema (from its zod schema). */
export interface WireStrategy {
  readonly id: string
  readonly label: string
  readonly source: string
  readonly description: string
  readonly paramsSchema: unknown
  /** Params with every default filled (what `{}` validates to); null when `{}` is not valid. */
  readonly defaults: unknown
}

/** One point of a sweep: the config with the swept parameter set to `value`. */
export interface SweepPoint {
  readonly value: number
  /** False when the config was invalid at this value (see `error`). */
  readonly ok: boolean
  readonly before: number
  readonly after: number
  readonly saved: number
  readonly changes: number
  /** Number of invariant checks failing. */
  readonly violations: number
  /** USD per session under the config (prompt cache modelled), when the sweep was asked for cost. */
  readonly costAfter?: number | null
  /** Removed content the agent used later at this value (zeros when invalid). */
  readonly risk: RiskFigures
  readonly error?: string
}

/** One side of a comparison. */
export interface CompareSide {
  readonly configName: string
  readonly before: number
  readonly after: number
  readonly changes: number
  readonly invariantsOk: boolean
  /** USD per session, uncompacted and under this config, and its cache re-writes (null: unpriced). */
  readonly cost: {
    readonly before: number | null
    readonly after: number | null
    readonly cacheRewrites: number | null
  }
  /** Removed content the agent used later under this config. */
  readonly risk: RiskFigures
}

/** A group the two configs decide differently about. */
export interface CompareDifference {
  readonly groupId: string
  readonly index: number
  readonly kind: string
  readonly a: {
    readonly status: GroupStatus
    readonly after: number
    readonly reason: string
    readonly strategy: string
    /** This side removes content of the group that the agent used later. */
    readonly usedLater: boolean
  }
  readonly b: {
    readonly status: GroupStatus
    readonly after: number
    readonly reason: string
    readonly strategy: string
    /** This side removes content of the group that the agent used later. */
    readonly usedLater: boolean
  }
}

/** What the Export dialog can produce: our config, a target system's config, or the run's files. */
export type ConfigExportTarget = TargetId | 'compaction-lab'

/** Syntax of an exported file, for the preview's highlighting. */
export type ExportLanguage =
  | 'yaml'
  | 'json'
  | 'jsonc'
  | 'typescript'
  | 'python'
  | 'php'
  | 'jsonl'
  | 'csv'
  | 'markdown'
  | 'text'

/** A file ready to copy or download, with what could not be carried over and how to use it. */
export interface ExportFile {
  readonly fileName: string
  readonly language: ExportLanguage
  readonly mediaType: string
  readonly text: string
  /**
   * A target system's export: what that system will do with the file, in one sentence (also the
   * file's first line wherever its format has comments).
   */
  readonly summary?: string
  /** Parts of the config the target cannot express (config exports only; empty otherwise). */
  readonly warnings: readonly LossyWarning[]
  readonly notes: readonly string[]
}
