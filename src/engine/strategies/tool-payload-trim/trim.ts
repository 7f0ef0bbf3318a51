/**
 * What happens to an OLDER occurrence of a group key (the latest one is kept by the scan in
 * `tool-payload-trim.ts`): adachsoft's `compactInput` for a call's arguments, `compactOutput` for
 * a result, and the decision that says why — trimmed, below the threshold, already compacted,
 * or not applied because it would not save anything.
 */
import type { ChangeOptions, StrategyContext } from '../../compaction/context.ts'
import type { Part, ToolCallPart, ToolResultPart } from '../../model.ts'
import type { PartRef } from '../../pairing.ts'
import { written, type Sentence } from '../../compaction/sentence.ts'
import {
  applyPlan,
  isJsonObject,
  planCompaction,
  type CompactionPlan,
  type JsonObject,
} from './compact.ts'
import type { CallFacts } from './keys.ts'
import { FIX_GROWTH, FIX_META, type ToolPayloadTrimParams } from './params.ts'
import type { PhpArray } from './php-json.ts'
import { recall, remember } from './words.ts'
import {
  metaOver,
  noTrimSentence,
  olderOf,
  placeholderSentence,
  textKeptSentence,
  trimmedSentence,
} from './sentences.ts'
import { resultTrimOf } from './result-trim.ts'
import { ByThreshold } from './by-threshold.ts'
import { parseJson } from '../../json.ts'
import type { Out } from '../playback.ts'
import { sameItems } from '../../arrays.ts'

export interface TrimEnv {
  readonly ctx: StrategyContext
  readonly p: ToolPayloadTrimParams
  /** Where skips and trims go (recorded for playback when the view is untouched: playback.ts). */
  readonly out: Out
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
  const { p, out } = env
  // Sentences are recalled per part (words.ts): only a first sight words them.
  if (!f.args || !part.argsRaw.trimStart().startsWith('{')) {
    const why =
      recall(part, f, 'not_object') ??
      remember(
        part,
        'not_object',
        () =>
          `${olderOf(part, f).capped} left as is: its arguments are not a JSON object, so there is no field to trim.`,
      )
    out.skip(group, 'no_savings', why, ref)
    return
  }
  const { plan, replacement } = callTrimOf(part, f.args, p, f.identifiers)
  if (!replacement) {
    noTrim(env, ref, group, part, f, plan, 'argument', 'inputTrimBytes')
    return
  }
  const detail = trimmedSentence(part, f, plan, p.inputTrimBytes)
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
  const { p, out } = env
  const t = resultTrimOf(part, p, f)
  // Sentences are recalled per part (words.ts), those naming the threshold from a template
  // (sentences.ts): only a first sight words them.
  switch (t.kind) {
    case 'attachments': {
      const why =
        recall(part, f, t.kind) ??
        remember(
          part,
          t.kind,
          () =>
            `${olderOf(part, f).capped} left untouched: it carries images/files, which adachsoft's field trimming has no form for.`,
        )
      out.skip(group, 'denied_by_policy', why, ref)
      return
    }
    case 'placeholder': {
      const why =
        recall(part, f, t.kind) ??
        remember(
          part,
          t.kind,
          () => `${olderOf(part, f).capped} is already the [tool_compaction] placeholder.`,
        )
      out.skip(group, 'already_compacted', why, ref)
      return
    }
    case 'json_kept':
      noTrim(env, ref, group, part, f, t.plan, 'result', 'outputTrimBytes')
      return
    case 'json_trim': {
      const detail = trimmedSentence(part, f, t.plan, p.outputTrimBytes)
      apply(env, ref, group, t.replacement, t.plan, detail, newer)
      return
    }
    case 'text_kept': {
      const detail =
        t.json === null
          ? (recall(part, f, t.kind) ??
            remember(
              part,
              t.kind,
              () =>
                `${olderOf(part, f).capped} left as is: PHP cannot json_encode it (invalid UTF-8), so adachsoft leaves it.`,
            ))
          : textKeptSentence(part, f, t.size, p.outputTrimBytes)
      out.skip(group, 'below_threshold', detail, ref)
      return
    }
    case 'text_trim': {
      const detail = placeholderSentence(part, f, t.plan, p.outputTrimBytes)
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

/**
 * Per call part: the outcomes of the last few thresholds (for one mode and identifier list, the
 * state reset in place when those change), and the outcome with nothing omitted shared per plan.
 * Like the results (result-trim.ts): a pure function of the immutable part (its decoded
 * arguments come from `decodeArgs`, one value per part), the threshold, the mode and the
 * identifier fields — without a key string, a map entry and a record per call per edit.
 */
interface CallState {
  faithful: boolean
  identifiers: readonly string[]
  readonly made: ByThreshold<CallTrim>
}

const callStates = new WeakMap<ToolCallPart, CallState>()

/** `{plan, replacement: null}` once per plan (plans are shared per outcome: compact.ts). */
const keptTrims = new WeakMap<CompactionPlan, CallTrim>()

function callTrimOf(
  part: ToolCallPart,
  decoded: PhpArray,
  p: ToolPayloadTrimParams,
  identifiers: readonly string[],
): CallTrim {
  let s = callStates.get(part)
  if (!s) {
    s = { faithful: p.faithful, identifiers, made: new ByThreshold() }
    callStates.set(part, s)
  } else if (s.faithful !== p.faithful || !sameItems(s.identifiers, identifiers)) {
    s.faithful = p.faithful
    s.identifiers = identifiers
    s.made.clear()
  }
  const threshold = p.inputTrimBytes
  const hit = s.made.get(threshold)
  if (hit) return hit
  const plan = planCompaction(decoded, {
    thresholdBytes: threshold,
    identifierFields: identifiers,
    skipCompacted: !p.faithful,
  })
  let made: CallTrim
  if (plan.omitted.length > 0) {
    const base = isJsonObject(part.args) ? part.args : (parseJson(part.argsRaw) as JsonObject)
    const args = applyPlan(base, plan, threshold, !p.faithful)
    made = { plan, replacement: { ...part, argsRaw: JSON.stringify(args), args } }
  } else {
    let kept = keptTrims.get(plan)
    if (!kept) {
      kept = { plan, replacement: null }
      keptTrims.set(plan, kept)
    }
    made = kept
  }
  s.made.set(threshold, made)
  return made
}

/** A call or result with nothing over its threshold (the sentence from a template). */
function noTrim(
  env: TrimEnv,
  ref: PartRef,
  group: number,
  part: ToolCallPart | ToolResultPart,
  f: CallFacts,
  plan: CompactionPlan,
  side: 'argument' | 'result',
  param: 'inputTrimBytes' | 'outputTrimBytes',
): void {
  const { p, out } = env
  let done = false
  for (const k of plan.kept) if (k.why === 'already_compacted') done = true
  const why = noTrimSentence(part, f, plan, side, param, p[param], done)
  out.skip(group, done ? 'already_compacted' : 'below_threshold', why, ref)
}

function apply(
  env: TrimEnv,
  ref: PartRef,
  group: number,
  replacement: Part,
  plan: CompactionPlan,
  detail: Sentence,
  newer: PartRef,
): void {
  const { ctx, p, out } = env
  const fields = fieldsOf(plan)
  const threshold = replacement.kind === 'tool_call' ? p.inputTrimBytes : p.outputTrimBytes
  const fixed = !p.faithful && metaOver(plan, threshold) ? FIX_META : undefined
  if (!p.faithful && !out.isProtected(group, ref)) {
    const message = ctx.conversation.messages[ref.message]
    const after = ctx.view.price(replacement, message?.role ?? 'tool', message?.model)
    const before = ctx.view.partTokens(ref)
    if (after >= before) {
      out.skip(
        group,
        'no_savings',
        () =>
          `${written(detail).replace(/\.$/, '')} — not applied: the trimmed part (${after} tokens) is not smaller than the original (${before}); ${FIX_GROWTH}.`,
        ref,
      )
      return
    }
  }
  // Plain literals, not spreads (one options object per trim, thousands per re-plan).
  const options: ChangeOptions = fixed
    ? p.faithful
      ? { fields, newer, fixed, allowGrowth: true }
      : { fields, newer, fixed }
    : p.faithful
      ? { fields, newer, allowGrowth: true }
      : { fields, newer }
  out.replace(ref, replacement, 'trim', 'payload_trimmed', detail, options)
}

// The omitted field names of a plan (plans are memoised per part, so this is one array per part):
// every trim's decision lists them, and a fresh array per trim per re-plan outlived the round.
const planFields = new WeakMap<CompactionPlan, readonly string[]>()

function fieldsOf(plan: CompactionPlan): readonly string[] {
  let fields = planFields.get(plan)
  if (!fields) {
    fields = plan.omitted.map((o) => o.key)
    planFields.set(plan, fields)
  }
  return fields
}
