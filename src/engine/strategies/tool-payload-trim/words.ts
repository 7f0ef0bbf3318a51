/**
 * Decision sentences of tool-payload-trim, worded once per (part object, call facts).
 *
 * Every re-plan and every round of a 10,000-message transcript words thousands of "kept intact" /
 * "left as is" / "Trimmed …" sentences, and all of them live until the run ends: building them
 * again each time was most of the strategy's allocation and of the garbage collector's copying.
 *
 * Two kinds of sentence:
 * - fixed ones ("kept intact: the latest …", "left untouched: … excludedTools") are a pure
 *   function of the immutable part and the call's facts (name, id, key): {@link recall} /
 *   {@link remember} give back the text the caller worded the first time, whatever the params;
 * - the ones that name a threshold ("… over outputTrimBytes=100 …") are kept as a template per
 *   (part, facts, kind, plan): the words before the number, and after it (which may carry a note
 *   that depends on the threshold, `x`). An edit of the threshold — every keystroke on it in the
 *   app — then makes each sentence by joining three strings the template holds (a rope, not a
 *   copy) instead of wording it again: 10,000 sentences of ~200 characters per edit.
 *
 * One entry per part, reset in place when its facts change.
 */
import type { Part } from '../../model.ts'
import type { Sentence } from '../../compaction/sentence.ts'
import type { CallFacts } from './keys.ts'

/** A threshold-naming sentence: `prefix + threshold + a + x + b`, the last one made kept. */
export interface Template {
  readonly prefix: string
  readonly a: string
  readonly b: string
  /** The threshold-dependent note of the last sentence made, and `a + x + b` for it. */
  x: string
  tail: string
  /** The last sentence made, for `threshold` (NaN: none yet). */
  threshold: number
  text: string
  /**
   * The last sentence handed out unwritten ({@link sayLater}), for `laterThreshold` and `laterX`:
   * every re-plan at the same threshold hands out the same function, so none allocates one.
   */
  later: Sentence | null
  laterThreshold: number
  laterX: string
}

interface Worded {
  name: string
  callId: string
  key: string
  /** Per sentence: its kind (a constant per call site), the plan it was worded from (templates). */
  readonly kinds: string[]
  readonly plans: (object | null)[]
  readonly texts: (Sentence | Template)[]
}

/** Sentences kept per part before they start over (a few kinds, a few plans per threshold edit). */
const MAX_PER_PART = 8

const worded = new WeakMap<Part, Worded>()

/** The part's entry for these facts (reset in place if they changed). */
function entryOf(part: Part, f: CallFacts): Worded {
  const entry = worded.get(part)
  if (!entry) {
    const made: Worded = {
      name: f.name,
      callId: f.callId,
      key: f.key,
      kinds: [],
      plans: [],
      texts: [],
    }
    worded.set(part, made)
    return made
  }
  if (entry.name !== f.name || entry.callId !== f.callId || entry.key !== f.key) {
    entry.name = f.name
    entry.callId = f.callId
    entry.key = f.key
    clear(entry)
  }
  return entry
}

function clear(entry: Worded): void {
  entry.kinds.length = 0
  entry.plans.length = 0
  entry.texts.length = 0
}

function find(entry: Worded, kind: string, plan: object | null): Sentence | Template | undefined {
  const { kinds, plans } = entry
  for (let i = 0; i < kinds.length; i++)
    if (kinds[i] === kind && plans[i] === plan) return entry.texts[i]
  return undefined
}

function keep(part: Part, kind: string, plan: object | null, value: Sentence | Template): void {
  const entry = worded.get(part)
  if (!entry) return
  if (entry.kinds.length >= MAX_PER_PART) clear(entry)
  entry.kinds.push(kind)
  entry.plans.push(plan)
  entry.texts.push(value)
}

/**
 * The fixed sentence of this kind last kept for this part and facts; otherwise undefined, and
 * the caller keeps one with {@link remember}. (A lookup and a store rather than a callback per
 * decision: a closure per decision per re-plan was as much garbage as the sentence.)
 */
export function recall(part: Part, f: CallFacts, kind: string): Sentence | undefined {
  const hit = find(entryOf(part, f), kind, null)
  return typeof hit === 'object' ? undefined : hit
}

/**
 * Keep a fixed sentence after {@link recall} missed (same part, same kind); returns it. The
 * function that writes it, as a rule: kept per part, it is made once, written when read.
 */
export function remember(part: Part, kind: string, sentence: Sentence): Sentence {
  keep(part, kind, null, sentence)
  return sentence
}

/** The template of this kind worded from `plan` for this part and facts, if there is one. */
export function recallTemplate(
  part: Part,
  f: CallFacts,
  kind: string,
  plan: object,
): Template | undefined {
  const hit = find(entryOf(part, f), kind, plan)
  return typeof hit === 'object' ? hit : undefined
}

/** Keep a template made after {@link recallTemplate} missed; returns it. */
export function rememberTemplate(
  part: Part,
  kind: string,
  plan: object,
  prefix: string,
  a: string,
  b: string,
): Template {
  const t: Template = {
    prefix,
    a,
    b,
    x: '',
    tail: a + b,
    threshold: NaN,
    text: '',
    later: null,
    laterThreshold: NaN,
    laterX: '',
  }
  keep(part, kind, plan, t)
  return t
}

/** The template's sentence for `threshold`, with `x` (its threshold-dependent note, often ''). */
export function say(t: Template, threshold: number, x: string): string {
  if (t.threshold === threshold && t.x === x) return t.text
  if (t.x !== x) {
    t.x = x
    t.tail = t.a + x + t.b
  }
  t.threshold = threshold
  t.text = t.prefix + threshold + t.tail
  return t.text
}

/** {@link say}, written when read: the same function for the same threshold and note. */
export function sayLater(t: Template, threshold: number, x: string): Sentence {
  if (t.later !== null && t.laterThreshold === threshold && t.laterX === x) return t.later
  t.later = () => say(t, threshold, x)
  t.laterThreshold = threshold
  t.laterX = x
  return t.later
}
