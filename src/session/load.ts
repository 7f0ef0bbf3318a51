/**
 * Load: a transcript (pasted text, a sample, or a file's bytes) → detection, parse warnings, the
 * instant chars/4 report and short excerpts; then `count`: the same report priced exactly. The
 * parsed conversation stays with the caller (the worker's session, the CLI); only reports cross.
 */
import { inspectConversation } from '../engine/inspect.ts'
import type { Conversation, FormatId } from '../engine/model.ts'
import { estimateCounter, loadCounter } from '../engine/tokens/index.ts'
import type { TextCounter, TokenizerId } from '../engine/tokens/types.ts'
import {
  FORMAT_IDS,
  importTranscript,
  importTranscriptBytes,
  type ImportOutcome,
} from '../formats/index.ts'
import { now } from './clock.ts'
import { groupFacts } from './facts.ts'
import { groupingOf } from './grouping.ts'
import { previewConversation } from './preview.ts'
import { MAX_WARNINGS, type Counted, type Loaded } from './types.ts'

export interface LoadInput {
  /** Pasted text or a sample. */
  readonly text?: string
  /** A file's (or a paste's) UTF-8 bytes: decoded strictly, so a bad byte is reported, not guessed. */
  readonly bytes?: Uint8Array
  readonly fileName?: string
  /** Parse as this format instead of detecting one. */
  readonly format?: FormatId
  /** Load only this conversation of a multi-item file (0-based; see `LoadedItems`). */
  readonly item?: number
  /** List the file's conversations (each is parsed once to size it): the UI's item picker. */
  readonly listItems?: boolean
}

/** A strict UTF-8 decoder (`TextDecoder` with `fatal: true`); injected: the ES lib has none. */
export type Utf8Decoder = (bytes: Uint8Array) => string

/** Detect (unless `format` overrides) and parse; never throws. */
export function importInput(input: LoadInput, decode?: Utf8Decoder): ImportOutcome {
  const options = {
    ...(input.fileName !== undefined ? { fileName: input.fileName } : {}),
    ...(input.format !== undefined ? { format: input.format } : {}),
    ...(input.item !== undefined ? { item: input.item } : {}),
    ...(input.listItems === true ? { listItems: true } : {}),
  }
  return input.bytes
    ? importTranscriptBytes(input.bytes, options, decode)
    : importTranscript(input.text ?? '', options)
}

/** The load's outcome as the UI shows it, and the conversation (null when nothing could be read). */
export function loadTranscript(
  input: LoadInput,
  decode: Utf8Decoder,
): { readonly loaded: Loaded; readonly conversation: Conversation | null } {
  const started = now()
  const outcome = importInput(input, decode)
  const { detection, candidates, result } = outcome
  const warnings = [...(outcome.items?.warnings ?? []), ...result.warnings]
  const common = {
    ...(input.fileName !== undefined ? { fileName: input.fileName } : {}),
    detection,
    candidates,
    formats: FORMAT_IDS,
    warnings: warnings.slice(0, MAX_WARNINGS),
    warningCount: warnings.length,
    items: outcome.items
      ? { kind: outcome.items.kind, label: outcome.items.label, items: outcome.items.items }
      : null,
    item: outcome.item ?? null,
  }
  if (!result.ok) {
    const { line, offset, message } = result.error
    const loaded: Loaded = {
      ...common,
      error: { line, offset, message },
      report: null,
      preview: [],
      ms: now() - started,
      facts: null,
    }
    return { loaded, conversation: null }
  }
  const conversation = result.conversation
  const grouping = groupingOf(conversation)
  const loaded: Loaded = {
    ...common,
    error: null,
    report: inspectConversation(conversation, estimateCounter, { grouping }),
    preview: previewConversation(conversation),
    ms: now() - started,
    facts: groupFacts(conversation, grouping),
  }
  return { loaded, conversation: result.conversation }
}

/** The counter of `tokenizer` (its rank data is a separate chunk, loaded lazily). */
export function counterFor(tokenizer: TokenizerId): Promise<TextCounter> {
  return tokenizer === 'estimate' ? Promise.resolve(estimateCounter) : loadCounter(tokenizer)
}

/** The inspect report of `conversation` priced with `counter`. */
export function countConversation(conversation: Conversation, counter: TextCounter): Counted {
  const started = now()
  const report = inspectConversation(conversation, counter, { grouping: groupingOf(conversation) })
  return { tokenizer: counter.id, report, ms: now() - started }
}
