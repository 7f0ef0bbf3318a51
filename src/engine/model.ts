/**
 * The canonical conversation model every importer produces and every strategy reads.
 *
 * Why a model of our own: each source format correlates tool calls differently (ids, positions,
 * same-part call+result), splits messages differently and hides opaque payloads in different
 * places. Strategies must not care, so importers normalise into these types once.
 *
 * Everything here is plain data (structured-clone safe) so it can cross the worker boundary.
 */

/** Identifier of a transcript format; equals the folder name used in the shared corpus. */
export type FormatId =
  | 'openai-chat'
  | 'openai-responses'
  | 'anthropic-messages'
  | 'gemini'
  | 'gemini-cli'
  | 'claude-code'
  | 'codex'
  | 'opencode'
  | 'swe-agent'
  | 'openhands'
  | 'aider'
  | 'langchain'
  | 'ai-sdk'

export type Role = 'system' | 'user' | 'assistant' | 'tool'

/** An opaque payload: counted (by bytes), never rendered as text. */
export interface OpaqueData {
  /** What it is, for the UI: "encrypted reasoning", "thinking signature", "thoughtSignature". */
  readonly label: string
  /** Size in bytes (of the encoded string as it appears in the source). */
  readonly bytes: number
  /** The payload itself, kept only so the serializer can write it back unchanged. */
  readonly data?: string
}

export interface TextPart {
  readonly kind: 'text'
  readonly text: string
  /** Source-specific flags kept for round trips (e.g. opencode `synthetic`, Codex `phase`). */
  readonly meta?: Readonly<Record<string, unknown>>
}

export interface ReasoningPart {
  readonly kind: 'reasoning'
  /** Visible reasoning text (may be a summary, may be empty when only an opaque blob exists). */
  readonly text: string
  /** `summary` when the text is a provider summary of hidden reasoning. */
  readonly textKind?: 'full' | 'summary'
  /** Redacted reasoning (Anthropic `redacted_thinking`): only the opaque payload exists. */
  readonly redacted?: boolean
  /** Encrypted content / signature travelling with this reasoning. */
  readonly opaque?: OpaqueData
  readonly meta?: Readonly<Record<string, unknown>>
}

export interface ToolCallPart {
  readonly kind: 'tool_call'
  /** The correlation id as written by the source; null when the source has none. */
  readonly callId: string | null
  readonly name: string
  /**
   * Arguments exactly as the source carried them when they were a string (OpenAI `arguments`),
   * or the JSON serialisation of the object (Anthropic `input`). Used for token accounting.
   */
  readonly argsRaw: string
  /** Parsed arguments, when `argsRaw` is valid JSON (or the source gave an object). */
  readonly args?: unknown
  /** Set when `argsRaw` was not valid JSON: why. The raw string is kept untouched. */
  readonly argsError?: string
  /** Executed by the provider (Anthropic server tools, Responses web_search). */
  readonly serverSide?: boolean
  /** The source's own call flavour (`function`, `custom`, `local_shell`, `web_search`, …). */
  readonly callType?: string
  /** Set when the source has no call record and the importer read it from prose (see `DerivedFrom`). */
  readonly derivedFrom?: DerivedFrom
  readonly meta?: Readonly<Record<string, unknown>>
}

/**
 * Where a tool call or result came from when the source did not record it as one: `text` — a
 * text-action agent (SWE-agent 0.x, mini-swe-agent) wrote the command in a fenced block of its
 * reply and the next user message carried the output. The serializer writes such parts back as
 * the original text; the UI marks them so nobody mistakes them for recorded calls.
 */
export type DerivedFrom = 'text'

/** Content inside a tool result: text, or richer blocks (images). */
export type ResultContent = TextPart | ImagePart | FilePart | OpaquePart

export interface ToolResultPart {
  readonly kind: 'tool_result'
  readonly callId: string | null
  /** Tool name when the source records it on the result (Gemini, tau-bench, opencode). */
  readonly name?: string
  readonly content: readonly ResultContent[]
  readonly isError: boolean
  /** Set when the result is an observation message read as one (see `DerivedFrom`). */
  readonly derivedFrom?: DerivedFrom
  readonly meta?: Readonly<Record<string, unknown>>
}

export interface ImagePart {
  readonly kind: 'image'
  readonly mediaType?: string
  /** base64 payload when inline (never rendered as text). */
  readonly data?: string
  readonly url?: string
  readonly fileId?: string
  /** Decoded size when inline, else 0. */
  readonly bytes: number
  /** OpenAI `detail` hint, if any. */
  readonly detail?: string
  readonly meta?: Readonly<Record<string, unknown>>
}

export interface FilePart {
  readonly kind: 'file'
  readonly mediaType?: string
  readonly filename?: string
  readonly data?: string
  readonly url?: string
  readonly fileId?: string
  readonly bytes: number
  readonly meta?: Readonly<Record<string, unknown>>
}

/** Anything the model receives that we cannot interpret (encrypted compaction items, unknown blocks). */
export interface OpaquePart {
  readonly kind: 'opaque'
  readonly opaque: OpaqueData
  /** The original block/item, for the serializer. */
  readonly raw?: unknown
  readonly meta?: Readonly<Record<string, unknown>>
}

export type Part =
  TextPart | ReasoningPart | ToolCallPart | ToolResultPart | ImagePart | FilePart | OpaquePart

export type PartKind = Part['kind']

/** Token usage the transcript itself reported for the model call that produced a message. */
export interface ReportedUsage {
  /** Total prompt size of that call (input + cache read + cache creation), if derivable. */
  readonly contextTokens?: number
  readonly inputTokens?: number
  readonly outputTokens?: number
  readonly cacheReadTokens?: number
  readonly cacheWriteTokens?: number
  readonly reasoningTokens?: number
  /** Where the figure came from, e.g. "claude-code usage snapshot", "codex token_count". */
  readonly source: string
}

export interface Message {
  /** Stable, unique within the conversation. */
  readonly id: string
  readonly role: Role
  readonly parts: readonly Part[]
  /**
   * Injected / meta user messages (system reminders, environment context, command wrappers,
   * compaction summaries): they are sent to the model but do not start a turn.
   */
  readonly injected?: boolean
  /** Claude Code sidechain (inline subagent) or a subagent file: kept, labelled. */
  readonly sidechain?: string
  /** Model that produced an assistant message, when known. */
  readonly model?: string
  readonly timestamp?: string
  readonly usage?: ReportedUsage
  /** 1-based line in the source file (JSONL) where the message starts, for navigation. */
  readonly line?: number
  /**
   * Set on summaries inserted by a compaction strategy: the ids of the groups it replaces and the
   * strategy that wrote it. Such a message forms a `summary` group.
   */
  readonly summaryOf?: { readonly strategy: string; readonly groups: readonly string[] }
  /** Source-specific data the serializer needs (envelopes, original ids). Never rendered. */
  readonly source?: Readonly<Record<string, unknown>>
}

export interface ToolDefinition {
  readonly name: string
  readonly description?: string
  /** The definition exactly as the source had it, serialised: this is what costs tokens. */
  readonly raw: string
}

/** An upstream compaction found in the transcript (not one of ours). */
export interface UpstreamMarker {
  readonly kind: 'upstream_compaction'
  /** Index into `messages` of the first message after the compaction point. */
  readonly beforeIndex: number
  readonly origin:
    | 'claude-code-boundary'
    | 'claude-code-summary'
    | 'codex-compacted'
    | 'responses-compaction'
    | 'anthropic-compaction'
    | 'opencode-compaction'
    | 'openhands-condensation'
  readonly summary?: string
  readonly trigger?: string
  readonly preTokens?: number
  readonly line?: number
  /** The original record, for the serializer. */
  readonly raw?: unknown
}

export interface ConversationMeta {
  readonly format: FormatId
  readonly model?: string
  readonly cwd?: string
  readonly sessionId?: string
  readonly title?: string
  /** Context window the source reported (Codex `model_context_window`). */
  readonly contextWindow?: number
  /** The pasted body holds only part of the history (Responses `previous_response_id`). */
  readonly historyIncomplete?: string
  /** How the input was wrapped: VCR cassette, HAR, proxy log, tau-bench array… */
  readonly wrapper?: string
  /** Anything else worth showing (counts of ignored lines, other conversations in the file). */
  readonly notes?: readonly string[]
  /**
   * Set on a conversation we compacted (and on its written file, through our record): the hidden
   * prefix and scale of the run that compacted it. Its reported usage describes the original, so a
   * later run measures with these instead of fitting again (the same figures: a fixed point).
   * `changedFrom` is the first message the compaction changed or dropped something at: reported
   * usage from there on describes content the conversation no longer has (a run that only
   * dropped groups leaves no other mark on the messages).
   */
  readonly carriedAccounting?: {
    readonly prefixTokens: number
    readonly scale: number
    readonly changedFrom?: number
  }
}

export interface Conversation {
  readonly meta: ConversationMeta
  /** System prompt blocks (outside `messages` when the source keeps them apart). */
  readonly system: readonly TextPart[]
  readonly tools: readonly ToolDefinition[]
  readonly messages: readonly Message[]
  readonly markers: readonly UpstreamMarker[]
  /** Format-private data for the serializer (e.g. lines that are not messages). */
  readonly source?: Readonly<Record<string, unknown>>
}
