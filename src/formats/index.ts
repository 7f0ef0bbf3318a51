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
import type { Detection, Importer, ImportOptions, ParseResult, SniffedInput } from './types.ts'
import { lineOfOffset, parseError } from './util.ts'

export type { Detection, Importer, ParseResult, ParseWarning, SniffedInput } from './types.ts'
export { sniff } from './sniff.ts'

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
}

/**
 * Detect (unless `format` overrides) and parse. Never throws: an unrecognised input yields a
 * parse error that says which formats were tried.
 */
export function importTranscript(
  text: string,
  options: ImportOptions & { format?: FormatId } = {},
): ImportOutcome {
  const refused = notTextString(text)
  if (refused) return refusal(refused.offset, refused.message, text)
  const input = sniff(text)
  const candidates = detectAll(input, options)
  if (options.format) {
    const forced = importerFor(options.format)
    const own = candidates.find((c) => c.format === options.format)
    const detection: Detection = own ?? {
      format: options.format,
      confidence: 0,
      evidence: ['chosen by the user (detection did not recognise this format)'],
    }
    return { detection, candidates, result: withNotices(safeParse(forced, input, options), input) }
  }
  const best = candidates[0]
  if (!best) {
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
  return {
    detection: best,
    candidates,
    result: withNotices(safeParse(importerFor(best.format), input, options), input),
  }
}

/**
 * Import file bytes: decoded as UTF-8 (invalid sequences become U+FFFD and one warning says at
 * which byte offset), then as `importTranscript`. Empty and binary files are refused with their
 * own message. `strict` is the host's fast validating decoder (`TextDecoder` with `fatal: true`).
 */
export function importTranscriptBytes(
  bytes: Uint8Array,
  options: ImportOptions & { format?: FormatId } = {},
  strict?: (bytes: Uint8Array) => string,
): ImportOutcome {
  const decoded = decodeTranscript(bytes, strict)
  if (!decoded.ok) return refusal(decoded.offset, decoded.message)
  const outcome = importTranscript(decoded.text, options)
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
