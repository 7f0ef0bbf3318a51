/**
 * adachsoft's `compactOutput` of one result — what a result becomes under the output threshold,
 * before any sentence is worded — with everything about it that does not depend on the params
 * kept per (immutable) part: its decoded and parsed JSON, and a plain text's placeholder.
 */
import type { ToolResultPart } from '../../model.ts'
import { parseJson } from '../../json.ts'
import { applyPlan, planCompaction, type CompactionPlan, type JsonObject } from './compact.ts'
import type { CallFacts } from './keys.ts'
import type { ToolPayloadTrimParams } from './params.ts'
import { decodeResult } from './decode.ts'
import { placeholder, PLACEHOLDER_PREFIX } from './text.ts'
import { resultTextOf } from './result-text.ts'
import { recall as recallValue, remember as rememberValue } from '../../recent-values.ts'

// Threshold values kept per part, least recently used dropped: an edit and its undo alternate
// between a few, and the rest piled up (one replacement per part per value ever typed).
const MAX_VALUES = 4

/** What adachsoft's `compactOutput` makes of one result, before any sentence is worded. */
export type ResultTrim =
  | { readonly kind: 'attachments' | 'placeholder' }
  | { readonly kind: 'json_kept'; readonly plan: CompactionPlan }
  | {
      readonly kind: 'json_trim' | 'text_trim'
      readonly plan: CompactionPlan
      readonly replacement: ToolResultPart
    }
  | { readonly kind: 'text_kept'; readonly size: number; readonly json: string | null }

// Parts are immutable and the outcome depends only on the part, the threshold, the mode and the
// call's name/id: re-planning (every config edit, every round) reuses it — no decoding, hashing
// or re-serialising, and the replacement is the same object, so its price is looked up, not
// counted again.
const resultTrims = new WeakMap<ToolResultPart, Map<string, ResultTrim>>()
/** The last outcome per part, checked first by identity: no key string per result per re-plan. */
const lastResultTrims = new WeakMap<
  ToolResultPart,
  { p: ToolPayloadTrimParams; name: string; callId: string; made: ResultTrim }
>()

export function resultTrimOf(
  part: ToolResultPart,
  p: ToolPayloadTrimParams,
  f: CallFacts,
): ResultTrim {
  const last = lastResultTrims.get(part)
  if (last && last.p === p && last.name === f.name && last.callId === f.callId) return last.made
  const key = `${p.outputTrimBytes}|${p.faithful}|${f.name}|${f.callId}`
  let byKey = resultTrims.get(part)
  let made = byKey ? recallValue(byKey, key) : undefined
  if (!made) {
    made = computeResultTrim(part, p, f)
    if (!byKey) {
      byKey = new Map()
      resultTrims.set(part, byKey)
    }
    rememberValue(byKey, key, made, MAX_VALUES)
  }
  lastResultTrims.set(part, { p, name: f.name, callId: f.callId, made })
  return made
}

function computeResultTrim(
  part: ToolResultPart,
  p: ToolPayloadTrimParams,
  f: CallFacts,
): ResultTrim {
  if (part.content.some((c) => c.kind !== 'text')) return { kind: 'attachments' }
  const measured = resultTextOf(part)
  const text = measured.text
  if (text.startsWith(PLACEHOLDER_PREFIX)) return { kind: 'placeholder' }
  const decoded = decodeResult(part, text)
  if (decoded) {
    const plan = planCompaction(decoded, {
      thresholdBytes: p.outputTrimBytes,
      identifierFields: NO_FIELDS,
      skipCompacted: !p.faithful,
    })
    if (plan.omitted.length === 0) return { kind: 'json_kept', plan }
    const trimmed = applyPlan(parsedResult(part, text), plan, p.outputTrimBytes, !p.faithful)
    const replacement: ToolResultPart = {
      ...part,
      content: [{ kind: 'text', text: JSON.stringify(trimmed) }],
    }
    return { kind: 'json_trim', plan, replacement }
  }
  // Plain text: the result array is {content: <text>} (README Example A).
  const size = measured.size()
  const json = measured.json()
  if (size <= p.outputTrimBytes || json === null) return { kind: 'text_kept', size, json }
  const { plan, content } = textTrimOf(part, f, size)
  const array = applyPlan({ content: text }, plan, p.outputTrimBytes, false)
  const replacement: ToolResultPart = {
    ...part,
    content,
    meta: { ...part.meta, toolCompaction: array },
  }
  return { kind: 'text_trim', plan, replacement }
}

const NO_FIELDS: readonly string[] = Object.freeze([])

// The JS object of a JSON result (applyPlan copies it, never changes it): once per part.
const parsedResults = new WeakMap<ToolResultPart, JsonObject>()

function parsedResult(part: ToolResultPart, text: string): JsonObject {
  let parsed = parsedResults.get(part)
  if (!parsed) {
    parsed = parseJson(text) as JsonObject
    parsedResults.set(part, parsed)
  }
  return parsed
}

/**
 * A plain-text result's plan and placeholder content: whatever the threshold that trims it, the
 * same omitted field (size and hash of the whole text) and the same placeholder, so one per part
 * (and per the call's name and id the placeholder names); only the meta's threshold is new.
 */
const textTrims = new WeakMap<
  ToolResultPart,
  { name: string; callId: string; plan: CompactionPlan; content: ToolResultPart['content'] }
>()

function textTrimOf(part: ToolResultPart, f: CallFacts, size: number) {
  const hit = textTrims.get(part)
  if (hit && hit.name === f.name && hit.callId === f.callId) return hit
  const measured = resultTextOf(part)
  const made = {
    name: f.name,
    callId: f.callId,
    plan: { omitted: [{ key: 'content', bytes: size, sha256: measured.sha256() }], kept: [] },
    content: [
      { kind: 'text' as const, text: placeholder(part.name ?? f.name, part.callId ?? f.callId) },
    ],
  }
  textTrims.set(part, made)
  return made
}
