/**
 * adachsoft's `compactOutput` of one result — what a result becomes under the output threshold,
 * before any sentence is worded — with everything about it that does not depend on the params
 * kept per (immutable) part: its decoded and parsed JSON, and a plain text's placeholder.
 */
import type { ToolResultPart } from '../../model.ts'
import { parseJson } from '../../json.ts'
import {
  applyPlan,
  META_KEY,
  OMITTED,
  planCompaction,
  type CompactionPlan,
  type JsonObject,
} from './compact.ts'
import type { CallFacts } from './keys.ts'
import type { ToolPayloadTrimParams } from './params.ts'
import type { PhpArray } from './php-json.ts'
import { decodeResult } from './decode.ts'
import { placeholder, PLACEHOLDER_PREFIX } from './text.ts'
import { resultTextOf } from './result-text.ts'
import { ByThreshold } from './by-threshold.ts'

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

/**
 * What a result is whatever the threshold: attachments, already the placeholder, a JSON object
 * (its decoded array: the plan depends on the threshold), or a plain text (its size and
 * `json_encode`, with the outcome below the threshold, one object for every threshold).
 */
type Shape =
  | { readonly kind: 'fixed'; readonly made: ResultTrim }
  | { readonly kind: 'json'; readonly decoded: PhpArray; readonly text: string }
  | { readonly kind: 'text'; readonly size: number; readonly kept: ResultTrim }

/**
 * Per part: its shape (for the call's name and id a placeholder names, and the mode) and the
 * outcomes of the last few thresholds. Updated in place: an edit of `outputTrimBytes` (every
 * keystroke on it in the app) asks every result again, and a record, a key string and a map
 * entry per result per edit were thousands of objects kept alive until the run ended.
 */
interface State {
  name: string
  callId: string
  faithful: boolean
  shape: Shape
  /** Outcomes by threshold, least recently used first. */
  readonly made: ByThreshold<ResultTrim>
}

// Parts are immutable and the outcome depends only on the part, the threshold, the mode and the
// call's name/id: re-planning (every config edit, every round) reuses it — no decoding, hashing
// or re-serialising, and the replacement is the same object, so its price is looked up, not
// counted again.
const states = new WeakMap<ToolResultPart, State>()

export function resultTrimOf(
  part: ToolResultPart,
  p: ToolPayloadTrimParams,
  f: CallFacts,
): ResultTrim {
  let s = states.get(part)
  if (!s) {
    s = {
      name: f.name,
      callId: f.callId,
      faithful: p.faithful,
      shape: shapeOf(part),
      made: new ByThreshold(),
    }
    states.set(part, s)
  } else if (s.name !== f.name || s.callId !== f.callId || s.faithful !== p.faithful) {
    s.name = f.name
    s.callId = f.callId
    s.faithful = p.faithful
    s.made.clear()
  }
  const shape = s.shape
  if (shape.kind === 'fixed') return shape.made
  const threshold = p.outputTrimBytes
  if (shape.kind === 'text' && shape.size <= threshold) return shape.kept
  const hit = s.made.get(threshold)
  if (hit) return hit
  const made =
    shape.kind === 'json'
      ? jsonTrim(part, shape, threshold, p.faithful)
      : textTrim(part, f, shape.size, threshold)
  return s.made.set(threshold, made)
}

function shapeOf(part: ToolResultPart): Shape {
  if (part.content.some((c) => c.kind !== 'text'))
    return { kind: 'fixed', made: { kind: 'attachments' } }
  const measured = resultTextOf(part)
  const text = measured.text
  if (text.startsWith(PLACEHOLDER_PREFIX)) return { kind: 'fixed', made: { kind: 'placeholder' } }
  const decoded = decodeResult(part, text)
  if (decoded) return { kind: 'json', decoded, text }
  // Plain text: the result array is {content: <text>} (README Example A). Kept as it is at every
  // threshold it is not over, and at every threshold when PHP cannot encode it.
  const size = measured.size()
  const json = measured.json()
  const kept: ResultTrim = { kind: 'text_kept', size, json }
  return json === null ? { kind: 'fixed', made: kept } : { kind: 'text', size, kept }
}

function jsonTrim(
  part: ToolResultPart,
  shape: { readonly decoded: PhpArray; readonly text: string },
  threshold: number,
  faithful: boolean,
): ResultTrim {
  const plan = planCompaction(shape.decoded, {
    thresholdBytes: threshold,
    identifierFields: NO_FIELDS,
    skipCompacted: !faithful,
  })
  if (plan.omitted.length === 0) return { kind: 'json_kept', plan }
  const trimmed = applyPlan(parsedResult(part, shape.text), plan, threshold, !faithful)
  const replacement: ToolResultPart = {
    ...part,
    content: [{ kind: 'text', text: JSON.stringify(trimmed) }],
  }
  return { kind: 'json_trim', plan, replacement }
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
 * A plain-text result over the threshold: whatever the threshold, the same omitted field (size
 * and hash of the whole text), the same placeholder and the same `omittedFields` record, so those
 * are made once per part (and per the call's name and id the placeholder names); only the meta's
 * `thresholdBytes` is new — the part applyPlan would make, built around the shared pieces.
 */
const textTrims = new WeakMap<
  ToolResultPart,
  {
    readonly name: string
    readonly callId: string
    readonly plan: CompactionPlan
    readonly content: ToolResultPart['content']
    readonly omittedFields: JsonObject
  }
>()

function textTrim(part: ToolResultPart, f: CallFacts, size: number, threshold: number): ResultTrim {
  let t = textTrims.get(part)
  if (!t || t.name !== f.name || t.callId !== f.callId) {
    const sha256 = resultTextOf(part).sha256()
    t = {
      name: f.name,
      callId: f.callId,
      plan: { omitted: [{ key: 'content', bytes: size, sha256 }], kept: [] },
      content: [
        { kind: 'text' as const, text: placeholder(part.name ?? f.name, part.callId ?? f.callId) },
      ],
      omittedFields: { content: { bytes: size, sha256 } },
    }
    textTrims.set(part, t)
  }
  // applyPlan({content: text}, plan, threshold, false), key for key: the omitted field in its
  // place, then the meta (the shared record is only read, like every part's meta).
  const array: JsonObject = {
    content: OMITTED,
    [META_KEY]: { thresholdBytes: threshold, omittedFields: t.omittedFields },
  }
  const replacement: ToolResultPart = {
    ...part,
    content: t.content,
    meta: { ...part.meta, toolCompaction: array },
  }
  return { kind: 'text_trim', plan: t.plan, replacement }
}
