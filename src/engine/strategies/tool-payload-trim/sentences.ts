/**
 * The sentences of tool-payload-trim's decisions about older calls and results that name a
 * threshold, made from per-part templates (words.ts): the words around the number are worded
 * once per (part, facts, plan), and an edit of the threshold only joins them to the new number
 * (when the sentence is read: each function returns it unwritten, the same function for the same
 * threshold). Each one writes exactly the sentence the step has always written.
 */
import type { Part, ToolCallPart, ToolResultPart } from '../../model.ts'
import { OMITTED, type CompactionPlan, type KeptField } from './compact.ts'
import { showKey, type CallFacts } from './keys.ts'
import { FIX_META } from './params.ts'
import { describeFields, describeKept } from './text.ts'
import type { Sentence } from '../../compaction/sentence.ts'
import { recallTemplate, rememberTemplate, sayLater } from './words.ts'

const SIZES = ' (sizes are PHP strlen/json_encode bytes).'

/** "Trimmed older … call …: argument field … over inputTrimBytes=N → "[omitted]" with … meta…". */
export function trimmedSentence(
  part: ToolCallPart | ToolResultPart,
  f: CallFacts,
  plan: CompactionPlan,
  threshold: number,
): Sentence {
  const t =
    recallTemplate(part, f, 'trimmed', plan) ??
    rememberTemplate(
      part,
      'trimmed',
      plan,
      part.kind === 'tool_call'
        ? `Trimmed ${olderOf(part, f).text}: argument ${describeFields(plan.omitted)} over inputTrimBytes=`
        : `Trimmed ${olderOf(part, f).text}: result ${describeFields(plan.omitted)} over outputTrimBytes=`,
      ` → "${OMITTED}" with _tool_compaction meta`,
      SIZES,
    )
  return sayLater(t, threshold, describeKept(plan, threshold))
}

/** "Replaced older … result … with the [tool_compaction] placeholder: its text (…) is over …". */
export function placeholderSentence(
  part: ToolResultPart,
  f: CallFacts,
  plan: CompactionPlan,
  threshold: number,
): Sentence {
  const t =
    recallTemplate(part, f, 'text_trim', plan) ??
    rememberTemplate(
      part,
      'text_trim',
      plan,
      `Replaced ${olderOf(part, f).text} with the [tool_compaction] placeholder: its text (result ${describeFields(plan.omitted)}) is over outputTrimBytes=`,
      '.',
      '',
    )
  return sayLater(t, threshold, '')
}

/** The plan slot of a plain text's "not over" template (its size is the part's own). */
const TEXT_KEPT = {}

/** "Older … result … left as is: its text is N bytes, not over outputTrimBytes=T." */
export function textKeptSentence(
  part: ToolResultPart,
  f: CallFacts,
  size: number,
  threshold: number,
): Sentence {
  const t =
    recallTemplate(part, f, 'text_kept', TEXT_KEPT) ??
    rememberTemplate(
      part,
      'text_kept',
      TEXT_KEPT,
      `${olderOf(part, f).capped} left as is: its text is ${size} bytes, not over outputTrimBytes=`,
      '.',
      '',
    )
  return sayLater(t, threshold, '')
}

/**
 * A call or result with nothing over its threshold: "… left as is: no argument field is over
 * inputTrimBytes=N bytes (largest trimmable: …)", or, when fields are already omitted, "… already
 * "[omitted]" … and nothing else is over …".
 */
export function noTrimSentence(
  part: ToolCallPart | ToolResultPart,
  f: CallFacts,
  plan: CompactionPlan,
  side: 'argument' | 'result',
  param: 'inputTrimBytes' | 'outputTrimBytes',
  threshold: number,
  done: boolean,
): Sentence {
  if (done) {
    const t =
      recallTemplate(part, f, 'no_trim_done', plan) ??
      rememberTemplate(
        part,
        'no_trim_done',
        plan,
        `${olderOf(part, f).capped} left as is: ${side} ${plan.kept
          .filter((k) => k.why === 'already_compacted')
          .map((k) => k.key)
          .join(
            ', ',
          )} already "${OMITTED}" (recorded in _tool_compaction) and nothing else is over ${param}=`,
        '',
        '.',
      )
    return sayLater(t, threshold, metaOver(plan, threshold) ? ` (${FIX_META})` : '')
  }
  const t =
    recallTemplate(part, f, 'no_trim_small', plan) ??
    rememberTemplate(
      part,
      'no_trim_small',
      plan,
      `${olderOf(part, f).capped} left as is: no ${side} field is over ${param}=`,
      ` bytes${largestText(plan)}`,
      '.',
    )
  return sayLater(t, threshold, describeKept(plan, threshold))
}

/** " (largest trimmable: key, N bytes)" of a plan's largest field kept as small, or ''. */
function largestText(plan: CompactionPlan): string {
  let largest: KeptField | undefined
  for (const k of plan.kept)
    if (k.why === 'small' && (largest === undefined || k.bytes > largest.bytes)) largest = k
  return largest ? ` (largest trimmable: ${largest.key}, ${largest.bytes} bytes)` : ''
}

/** Would the faithful mode have trimmed our earlier meta (it is over the threshold)? */
export const metaOver = (plan: CompactionPlan, threshold: number) =>
  plan.kept.some((k) => k.why === 'meta' && k.bytes > threshold)

export const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1)

/**
 * A part's "older … (group key …)" phrase, plain and capitalised, per part while the call's
 * name, id and key are the same: it opens nearly every sentence of the step, and a threshold edit
 * re-words those sentences (they name the threshold) but never this phrase.
 */
const olders = new WeakMap<
  Part,
  { name: string; callId: string; key: string; text: string; capped: string }
>()

/** "older read_file call c1 (group key …, a newer occurrence exists)", and capitalised. */
export function olderOf(part: ToolCallPart | ToolResultPart, f: CallFacts) {
  const hit = olders.get(part)
  if (hit && hit.name === f.name && hit.callId === f.callId && hit.key === f.key) return hit
  const text =
    part.kind === 'tool_call'
      ? `older ${f.name} call ${part.callId ?? '(no id)'} (group key ${showKey(f.key)}, a newer occurrence exists)`
      : `older ${f.name} result ${part.callId ?? f.callId} (group key ${showKey(f.key)}, a newer occurrence exists)`
  const made = { name: f.name, callId: f.callId, key: f.key, text, capped: cap(text) }
  olders.set(part, made)
  return made
}
