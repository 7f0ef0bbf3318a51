/**
 * Decision sentences of tool-payload-trim, worded once per (part object, params, call facts).
 *
 * Every re-plan and every round of a 10,000-message transcript words thousands of "kept intact" /
 * "left as is" / "Trimmed …" sentences, and all of them live until the run ends: building them
 * again each time was most of the strategy's allocation and of the garbage collector's copying.
 * A sentence is a pure function of the immutable part, the parsed params object (interned per
 * value, see intern-params.ts) and the call's facts (name, id, key), so it is looked up here
 * instead; the text is exactly what the caller worded the first time.
 *
 * One entry per part, updated in place when the params or facts change: an edit of a threshold
 * re-words every sentence that names it anyway, and a fresh record and Map per part per edit
 * (10,000 of each, all alive until the run ends) were a good part of that edit's garbage.
 */
import type { Part } from '../../model.ts'
import type { CallFacts } from './keys.ts'
import type { ToolPayloadTrimParams } from './params.ts'

interface Worded {
  p: ToolPayloadTrimParams
  name: string
  callId: string
  key: string
  /** Sentence kinds (a constant per call site) and their texts, side by side (one or two). */
  readonly kinds: string[]
  readonly texts: string[]
}

const worded = new WeakMap<Part, Worded>()

/**
 * The sentence of this kind last worded for this part, when nothing it depends on changed since;
 * otherwise undefined, and the caller words it and keeps it with {@link remember}. (A lookup and
 * a store rather than a callback: a closure per decision was as much garbage as the sentence.)
 */
export function recall(
  part: Part,
  p: ToolPayloadTrimParams,
  f: CallFacts,
  kind: string,
): string | undefined {
  const entry = worded.get(part)
  if (!entry) {
    worded.set(part, { p, name: f.name, callId: f.callId, key: f.key, kinds: [], texts: [] })
    return undefined
  }
  if (entry.p !== p || entry.name !== f.name || entry.callId !== f.callId || entry.key !== f.key) {
    entry.p = p
    entry.name = f.name
    entry.callId = f.callId
    entry.key = f.key
    entry.kinds.length = 0
    entry.texts.length = 0
    return undefined
  }
  const i = entry.kinds.indexOf(kind)
  return i === -1 ? undefined : entry.texts[i]
}

/** Keep a sentence worded after {@link recall} missed (same part, same kind); returns it. */
export function remember(part: Part, kind: string, text: string): string {
  const entry = worded.get(part)
  if (entry) {
    entry.kinds.push(kind)
    entry.texts.push(text)
  }
  return text
}
