/**
 * What happens to an OLDER occurrence of a group key (the latest one is kept by the scan in
 * `tool-payload-trim.ts`): adachsoft's `compactInput` for a call's arguments, `compactOutput` for
 * a result, and the decision that says why — trimmed, below the threshold, already compacted,
 * or not applied because it would not save anything.
 */
import type { StrategyContext } from '../../compaction/context.ts'
import type { Part, ToolCallPart, ToolResultPart } from '../../model.ts'
import type { PartRef } from '../../pairing.ts'
import {
  applyPlan,
  isJsonObject,
  OMITTED,
  planCompaction,
  type CompactionPlan,
  type JsonObject,
} from './compact.ts'
import { showKey, type CallFacts } from './keys.ts'
import { FIX_GROWTH, FIX_META, type ToolPayloadTrimParams } from './params.ts'
import { phpJsonDecode, phpJsonString, type PhpArray } from './php-json.ts'
import { sha256, utf8Length } from './sha256.ts'
import { describeFields, describeKept, placeholder, PLACEHOLDER_PREFIX } from './text.ts'
import { parseJson } from '../../json.ts'

export interface TrimEnv {
  readonly ctx: StrategyContext
  readonly p: ToolPayloadTrimParams
}

/** An older call: trim its argument fields over `inputTrimBytes` (identifier fields never). */
export function trimCall(
  env: TrimEnv,
  ref: PartRef,
  group: number,
  part: ToolCallPart,
  f: CallFacts,
  newer: PartRef,
): void {
  const { ctx, p } = env
  const label = `${f.name} call ${part.callId ?? '(no id)'}`
  const older = `older ${label} (group key ${showKey(f.key)}, a newer occurrence exists)`
  if (!f.args || !part.argsRaw.trimStart().startsWith('{')) {
    ctx.skip(
      group,
      'no_savings',
      `${cap(older)} left as is: its arguments are not a JSON object, so there is no field to trim.`,
      ref,
    )
    return
  }
  const { plan, replacement } = callTrimOf(part, f.args, p, f.identifiers)
  if (!replacement) {
    noTrim(env, ref, group, plan, `${cap(older)}`, 'argument', p.inputTrimBytes, 'inputTrimBytes')
    return
  }
  const detail = `Trimmed ${older}: argument ${describeFields(plan.omitted)} over inputTrimBytes=${p.inputTrimBytes} → "${OMITTED}" with _tool_compaction meta${describeKept(plan, p.inputTrimBytes)} (sizes are PHP strlen/json_encode bytes).`
  apply(env, ref, group, replacement, plan, detail, newer)
}

export function trimResult(
  env: TrimEnv,
  ref: PartRef,
  group: number,
  part: ToolResultPart,
  f: CallFacts,
  newer: PartRef,
): void {
  const { ctx, p } = env
  const label = `older ${f.name} result ${part.callId ?? f.callId} (group key ${showKey(f.key)}, a newer occurrence exists)`
  const t = resultTrimOf(part, p, f)
  switch (t.kind) {
    case 'attachments':
      ctx.skip(
        group,
        'denied_by_policy',
        `${cap(label)} left untouched: it carries images/files, which adachsoft's field trimming has no form for.`,
        ref,
      )
      return
    case 'placeholder':
      ctx.skip(
        group,
        'already_compacted',
        `${cap(label)} is already the [tool_compaction] placeholder.`,
        ref,
      )
      return
    case 'json_kept':
      noTrim(env, ref, group, t.plan, cap(label), 'result', p.outputTrimBytes, 'outputTrimBytes')
      return
    case 'json_trim': {
      const detail = `Trimmed ${label}: result ${describeFields(t.plan.omitted)} over outputTrimBytes=${p.outputTrimBytes} → "${OMITTED}" with _tool_compaction meta${describeKept(t.plan, p.outputTrimBytes)} (sizes are PHP strlen/json_encode bytes).`
      apply(env, ref, group, t.replacement, t.plan, detail, newer)
      return
    }
    case 'text_kept': {
      const why =
        t.json === null
          ? 'PHP cannot json_encode it (invalid UTF-8), so adachsoft leaves it'
          : `its text is ${t.size} bytes, not over outputTrimBytes=${p.outputTrimBytes}`
      ctx.skip(group, 'below_threshold', `${cap(label)} left as is: ${why}.`, ref)
      return
    }
    case 'text_trim': {
      const detail = `Replaced ${label} with the [tool_compaction] placeholder: its text (result ${describeFields(t.plan.omitted)}) is over outputTrimBytes=${p.outputTrimBytes}.`
      apply(env, ref, group, t.replacement, t.plan, detail, newer)
      return
    }
  }
}

/** adachsoft's `compactInput` of one call: the plan, and the trimmed call when it omits a field. */
interface CallTrim {
  readonly plan: CompactionPlan
  readonly replacement: ToolCallPart | null
}

// Like the results below: a pure function of the immutable part (its decoded arguments come from
// `decodeArgs`, one value per part), the threshold, the mode and the identifier fields.
const callTrims = new WeakMap<ToolCallPart, Map<string, CallTrim>>()

function callTrimOf(
  part: ToolCallPart,
  decoded: PhpArray,
  p: ToolPayloadTrimParams,
  identifiers: readonly string[],
): CallTrim {
  const key = `${p.inputTrimBytes}|${p.faithful}|${JSON.stringify(identifiers)}`
  let byKey = callTrims.get(part)
  const hit = byKey?.get(key)
  if (hit) return hit
  const plan = planCompaction(decoded, {
    thresholdBytes: p.inputTrimBytes,
    identifierFields: identifiers,
    skipCompacted: !p.faithful,
  })
  let replacement: ToolCallPart | null = null
  if (plan.omitted.length > 0) {
    const base = isJsonObject(part.args) ? part.args : (parseJson(part.argsRaw) as JsonObject)
    const args = applyPlan(base, plan, p.inputTrimBytes, !p.faithful)
    replacement = { ...part, argsRaw: JSON.stringify(args), args }
  }
  const made = { plan, replacement }
  if (!byKey) {
    byKey = new Map()
    callTrims.set(part, byKey)
  }
  byKey.set(key, made)
  return made
}

/** What adachsoft's `compactOutput` makes of one result, before any sentence is worded. */
type ResultTrim =
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

function resultTrimOf(part: ToolResultPart, p: ToolPayloadTrimParams, f: CallFacts): ResultTrim {
  const key = `${p.outputTrimBytes}|${p.faithful}|${f.name}|${f.callId}`
  let byKey = resultTrims.get(part)
  const hit = byKey?.get(key)
  if (hit) return hit
  const made = computeResultTrim(part, p, f)
  if (!byKey) {
    byKey = new Map()
    resultTrims.set(part, byKey)
  }
  byKey.set(key, made)
  return made
}

function computeResultTrim(
  part: ToolResultPart,
  p: ToolPayloadTrimParams,
  f: CallFacts,
): ResultTrim {
  if (part.content.some((c) => c.kind !== 'text')) return { kind: 'attachments' }
  const text = part.content.map((c) => (c.kind === 'text' ? c.text : '')).join('\n')
  if (text.startsWith(PLACEHOLDER_PREFIX)) return { kind: 'placeholder' }
  const decoded = text.trimStart().startsWith('{') ? decodeObject(text) : null
  if (decoded) {
    const plan = planCompaction(decoded, {
      thresholdBytes: p.outputTrimBytes,
      identifierFields: [],
      skipCompacted: !p.faithful,
    })
    if (plan.omitted.length === 0) return { kind: 'json_kept', plan }
    const trimmed = applyPlan(parseJson(text) as JsonObject, plan, p.outputTrimBytes, !p.faithful)
    const replacement: ToolResultPart = {
      ...part,
      content: [{ kind: 'text', text: JSON.stringify(trimmed) }],
    }
    return { kind: 'json_trim', plan, replacement }
  }
  // Plain text: the result array is {content: <text>} (README Example A).
  const size = utf8Length(text)
  const json = phpJsonString(text)
  if (size <= p.outputTrimBytes || json === null) return { kind: 'text_kept', size, json }
  const plan: CompactionPlan = {
    omitted: [{ key: 'content', bytes: size, sha256: sha256(json) }],
    kept: [],
  }
  const array = applyPlan({ content: text }, plan, p.outputTrimBytes, false)
  const replacement: ToolResultPart = {
    ...part,
    content: [{ kind: 'text', text: placeholder(part.name ?? f.name, part.callId ?? f.callId) }],
    meta: { ...part.meta, toolCompaction: array },
  }
  return { kind: 'text_trim', plan, replacement }
}

function noTrim(
  env: TrimEnv,
  ref: PartRef,
  group: number,
  plan: CompactionPlan,
  what: string,
  side: string,
  threshold: number,
  param: string,
): void {
  const { ctx } = env
  const done = plan.kept.filter((k) => k.why === 'already_compacted')
  if (done.length > 0) {
    ctx.skip(
      group,
      'already_compacted',
      `${what} left as is: ${side} ${done.map((k) => k.key).join(', ')} already "${OMITTED}" (recorded in _tool_compaction) and nothing else is over ${param}=${threshold}${metaOver(plan, threshold) ? ` (${FIX_META})` : ''}.`,
      ref,
    )
    return
  }
  const largest = plan.kept.filter((k) => k.why === 'small').sort((a, b) => b.bytes - a.bytes)[0]
  ctx.skip(
    group,
    'below_threshold',
    `${what} left as is: no ${side} field is over ${param}=${threshold} bytes${largest ? ` (largest trimmable: ${largest.key}, ${largest.bytes} bytes)` : ''}${describeKept(plan, threshold)}.`,
    ref,
  )
}

function apply(
  env: TrimEnv,
  ref: PartRef,
  group: number,
  replacement: Part,
  plan: CompactionPlan,
  detail: string,
  newer: PartRef,
): void {
  const { ctx, p } = env
  const fields = plan.omitted.map((o) => o.key)
  const threshold = replacement.kind === 'tool_call' ? p.inputTrimBytes : p.outputTrimBytes
  const fixed = !p.faithful && metaOver(plan, threshold) ? FIX_META : undefined
  if (!p.faithful && !ctx.protectionOf(group, ref)) {
    const message = ctx.conversation.messages[ref.message]
    const after = ctx.view.price(replacement, message?.role ?? 'tool', message?.model)
    const before = ctx.view.partTokens(ref)
    if (after >= before) {
      ctx.skip(
        group,
        'no_savings',
        `${detail.replace(/\.$/, '')} — not applied: the trimmed part (${after} tokens) is not smaller than the original (${before}); ${FIX_GROWTH}.`,
        ref,
      )
      return
    }
  }
  ctx.replace(ref, replacement, 'trim', 'payload_trimmed', detail, {
    fields,
    newer,
    ...(fixed ? { fixed } : {}),
    ...(p.faithful ? { allowGrowth: true } : {}),
  })
}

const decodedArgs = new WeakMap<ToolCallPart, PhpArray | null>()

/**
 * `decodeObject(part.argsRaw)`, once per (immutable) call part: every re-plan and round keys the
 * same calls again. The value is shared, so it is only read (as everything here does).
 */
export function decodeArgs(part: ToolCallPart): PhpArray | null {
  const hit = decodedArgs.get(part)
  if (hit !== undefined) return hit
  const made = decodeObject(part.argsRaw)
  decodedArgs.set(part, made)
  return made
}

/** `json_decode($text, true)` when it yields an array; null otherwise (PHP would have no fields). */
export function decodeObject(text: string): PhpArray | null {
  const d = phpJsonDecode(text)
  return d.ok && d.value !== null && typeof d.value === 'object' && d.value.kind === 'array'
    ? d.value
    : null
}

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1)

/** Would the faithful mode have trimmed our earlier meta (it is over the threshold)? */
const metaOver = (plan: CompactionPlan, threshold: number) =>
  plan.kept.some((k) => k.why === 'meta' && k.bytes > threshold)
