import type { Conversation, FormatId } from '../engine/model.ts'
import { importer as aider } from './aider/index.ts'
import { importer as aiSdk } from './ai-sdk/index.ts'
import { importer as anthropic } from './anthropic-messages/index.ts'
import { importer as claudeCode } from './claude-code/index.ts'
import { importer as codex } from './codex/index.ts'
import { importer as gemini } from './gemini/index.ts'
import { importer as geminiCli } from './gemini-cli/index.ts'
import { importer as langchain } from './langchain/index.ts'
import { importer as openaiChat } from './openai-chat/index.ts'
import { importer as openaiResponses } from './openai-responses/index.ts'
import { importer as opencode } from './opencode/index.ts'
import { importer as openhands } from './openhands/index.ts'
import { applyRecord, attachRecord, RECORD_CARRIER, recordOf } from './compaction-record.ts'
import { decodeTranscript, notTextString } from './decode.ts'
import { sniff } from './sniff.ts'
import { importer as sweAgent } from './swe-agent/index.ts'
import {
  itemTokens,
  splitItems,
  type FileItem,
  type ItemListing,
  type ItemsKind,
  type Split,
} from './items.ts'
import type {
  Detection,
  Importer,
  ImportOptions,
  ParseResult,
  ParseWarning,
  SniffedInput,
} from './types.ts'
import { lineOfOffset, parseError } from './util.ts'

export type { Detection, Importer, ParseResult, ParseWarning, SniffedInput } from './types.ts'
export { sniff } from './sniff.ts'
export type { FileItem, ItemListing, ItemsKind } from './items.ts'

/**
 * Every importer, most specific envelope first: on equal confidence the earlier one wins
 * (Codex lines embed Responses items, Claude Code lines embed Anthropic messages, AI-SDK uses
 * OpenAI's `role:"tool"`).
 */
export const IMPORTERS: readonly Importer[] = [
  aider,
  codex,
  claudeCode,
  geminiCli,
  opencode,
  sweAgent,
  openhands,
  langchain,
  aiSdk,
  gemini,
  openaiResponses,
  anthropic,
  openaiChat,
].map(withCompactionRecord)

/**
 * Every serializer writes our compaction record (what compaction did, which its format cannot
 * say: see `compaction-record.ts`) and every parse applies it, so a written compacted transcript
 * re-imports as already compacted and compacting it again changes nothing.
 */
function withCompactionRecord(inner: Importer): Importer {
  return {
    id: inner.id,
    label: inner.label,
    detect: (input, options) => inner.detect(input, options),
    parse: (input, options) => applyRecord(inner.parse(input, options), input.record),
    serialize: (conversation) =>
      attachRecord(inner.serialize(conversation), RECORD_CARRIER[inner.id], recordOf(conversation)),
  }
}

export const FORMAT_IDS: readonly FormatId[] = IMPORTERS.map((i) => i.id)

export function importerFor(id: FormatId): Importer {
  const found = IMPORTERS.find((i) => i.id === id)
  if (!found) throw new Error(`unknown format ${id}`)
  return found
}

export function isFormatId(value: string): value is FormatId {
  return IMPORTERS.some((i) => i.id === value)
}

/** Every importer's opinion, best first (the UI shows the runner-ups as override choices). */
export function detectAll(input: SniffedInput, options?: ImportOptions): Detection[] {
  const hits: { detection: Detection; order: number }[] = []
  IMPORTERS.forEach((imp, order) => {
    let detection: Detection | null = null
    try {
      detection = imp.detect(input, options)
    } catch {
      detection = null // a detector bug must not stop the others
    }
    if (detection) hits.push({ detection, order })
  })
  hits.sort((a, b) => b.detection.confidence - a.detection.confidence || a.order - b.order)
  return hits.map((h) => h.detection)
}

export interface ImportOutcome {
  readonly detection: Detection | null
  readonly candidates: readonly Detection[]
  readonly result: ParseResult
  /** The file's conversations, when it holds several and the caller asked (`listItems`). */
  readonly items?: ItemListing | null
  /** Which item was parsed (0-based), when the file holds several; absent for whole files. */
  readonly item?: number
}

/** What an import may ask besides the file name: a forced format, one item, the item list. */
export interface ImportRequest extends ImportOptions {
  readonly format?: FormatId
  /** Parse only this item of a multi-item file (0-based). */
  readonly item?: number
  /** List the file's items (name, messages, tokens: each item is parsed once to size it). */
  readonly listItems?: boolean
}

/**
 * Detect (unless `format` overrides) and parse. Never throws: an unrecognised input yields a
 * parse error that says which formats were tried. A file holding several conversations parses
 * as before unless `item` picks one (see `items.ts`); `listItems` lists them.
 */
export function importTranscript(text: string, options: ImportRequest = {}): ImportOutcome {
  return importText(text, options, false)
}

/** {@link importTranscript}; `bytesChecked`: decoded from bytes `notText` accepted. */
function importText(text: string, options: ImportRequest, bytesChecked: boolean): ImportOutcome {
  const refused = notTextString(text, bytesChecked)
  if (refused) return refusal(refused.offset, refused.message, text)
  const input = sniff(text)
  const candidates = detectAll(input, options)
  const detection = chosenDetection(candidates, options.format)
  if (!detection) {
    const where = input.kind === 'text' ? input.jsonError : undefined
    const message =
      input.kind === 'text' && where
        ? `could not read the input: ${where.message}`
        : 'unrecognised transcript: expected one of ' + FORMAT_IDS.join(', ')
    return {
      detection: null,
      candidates,
      result: {
        ok: false,
        error: parseError(where?.line ?? 1, where?.offset ?? 0, message),
        warnings: input.notices ?? [],
      },
    }
  }
  const split =
    options.item !== undefined || options.listItems === true
      ? splitItems(input, detection.format, options)
      : null
  const items = options.listItems === true ? listing(split, detection, options) : undefined
  if (options.item === undefined) {
    const result = withNotices(safeParse(importerFor(detection.format), input, options), input)
    return { detection, candidates, result, ...(items !== undefined ? { items } : {}) }
  }
  const picked = pickItem(split, options.item, detection, options)
  return { ...picked, candidates, ...(items !== undefined ? { items } : {}) }
}

function chosenDetection(candidates: readonly Detection[], format?: FormatId): Detection | null {
  if (!format) return candidates[0] ?? null
  return (
    candidates.find((c) => c.format === format) ?? {
      format,
      confidence: 0,
      evidence: ['chosen by the user (detection did not recognise this format)'],
    }
  )
}

/** Parse item `index` of a split file with the file's format (a capture's item is detected anew). */
function parseItem(
  split: Split,
  index: number,
  detection: Detection,
  options: ImportOptions,
): { detection: Detection; result: ParseResult } {
  const input = split.input(index)
  const own =
    split.kind === 'capture-sessions' ? (detectAll(input, options)[0] ?? detection) : detection
  const parsed = safeParse(importerFor(own.format), input, options)
  if (!parsed.ok) return { detection: own, result: parsed }
  const note = `item ${index} of ${split.count} (${split.kind}): ${split.name(index)}`
  const meta = parsed.conversation.meta
  return {
    detection: own,
    result: {
      ...parsed,
      conversation: {
        ...parsed.conversation,
        meta: { ...meta, notes: [note, ...(meta.notes ?? [])] },
      },
    },
  }
}

function pickItem(
  split: Split | null,
  index: number,
  detection: Detection,
  options: ImportOptions,
): { detection: Detection; result: ParseResult; item?: number } {
  const problem = (message: string) => ({
    detection,
    result: { ok: false as const, error: parseError(0, 0, message), warnings: [] },
  })
  if (!split) return problem(`item ${index} was asked for, but the file holds one conversation`)
  if (!Number.isInteger(index) || index < 0 || index >= split.count)
    return problem(
      `item ${index} does not exist: the file holds ${split.count} items (0 to ${split.count - 1})`,
    )
  const parsed = parseItem(split, index, detection, options)
  return {
    ...parsed,
    result: parsed.result.ok
      ? { ...parsed.result, warnings: [...split.warnings, ...parsed.result.warnings] }
      : parsed.result,
    item: index,
  }
}

/** Name and size every item (each is parsed once); items that do not parse are noted. */
function listing(
  split: Split | null,
  detection: Detection,
  options: ImportOptions,
): ItemListing | null {
  if (!split) return null
  const items: FileItem[] = []
  const warnings: ParseWarning[] = [...split.warnings]
  for (let i = 0; i < split.count; i++) {
    const { result } = parseItem(split, i, detection, options)
    if (result.ok) {
      items.push({
        index: i,
        name: split.name(i),
        messages: result.conversation.messages.length,
        tokens: itemTokens(result.conversation),
      })
    } else {
      items.push({ index: i, name: split.name(i), messages: 0 })
      warnings.push({ ...result.error, message: `item ${i}: ${result.error.message}` })
    }
  }
  return { kind: split.kind, label: ITEM_LABELS[split.kind](split.count), items, warnings }
}

const ITEM_LABELS: Record<ItemsKind, (n: number) => string> = {
  'tau-bench': (n) => `${n} tau-bench trajectories`,
  'aider-sessions': (n) => `${n} aider sessions`,
  'claude-code-threads': (n) => `the main conversation and ${n - 1} sub-agent run(s)`,
  'capture-sessions': (n) => `${n} conversations in the capture`,
}

/**
 * Import file bytes: decoded as UTF-8 (invalid sequences become U+FFFD and one warning says at
 * which byte offset), then as `importTranscript`. Empty and binary files are refused with their
 * own message. `strict` is the host's fast validating decoder (`TextDecoder` with `fatal: true`).
 */
export function importTranscriptBytes(
  bytes: Uint8Array,
  options: ImportRequest = {},
  strict?: (bytes: Uint8Array) => string,
): ImportOutcome {
  const decoded = decodeTranscript(bytes, strict)
  if (!decoded.ok) return refusal(decoded.offset, decoded.message)
  const outcome = importText(decoded.text, options, true)
  if (decoded.warnings.length === 0) return outcome
  return {
    ...outcome,
    result: { ...outcome.result, warnings: [...decoded.warnings, ...outcome.result.warnings] },
  }
}

function refusal(offset: number, message: string, text?: string): ImportOutcome {
  const line = text === undefined ? 1 : lineOfOffset(text, offset)
  return {
    detection: null,
    candidates: [],
    result: { ok: false, error: parseError(line, offset, message), warnings: [] },
  }
}

/** The structural pass's own warnings (too-deep values…) go first: they come earliest in reading. */
function withNotices(result: ParseResult, input: SniffedInput): ParseResult {
  const notices = input.notices ?? []
  if (notices.length === 0) return result
  return { ...result, warnings: [...notices, ...result.warnings] }
}

function safeParse(imp: Importer, input: SniffedInput, options: ImportOptions): ParseResult {
  try {
    return imp.parse(input, options)
  } catch (error) {
    // Importers must not throw; if one does, fail with a clear message instead of crashing.
    return {
      ok: false,
      error: parseError(
        0,
        0,
        `${imp.label} importer failed unexpectedly: ${error instanceof Error ? error.message : String(error)}`,
      ),
      warnings: [],
    }
  }
}

/** Serialize a conversation back to its own source format. */
export function serializeConversation(conversation: Conversation): string {
  return importerFor(conversation.meta.format).serialize(conversation)
}
