/**
 * Decision sentences of tool-payload-trim, worded once per (part object, params, call facts).
 *
 * Every re-plan and every round of a 10,000-message transcript words thousands of "kept intact" /
 * "left as is" / "Trimmed …" sentences, and all of them live until the run ends: building them
 * again each time was most of the strategy's allocation and of the garbage collector's copying.
 * A sentence is a pure function of the immutable part, the parsed params object (stable per
 * config, see the pipeline's parse cache) and the call's facts (name, id, key), so it is looked up
 * here instead; the text is exactly what the caller worded the first time.
 */
import type { Part } from '../../model.ts'
import type { CallFacts } from './keys.ts'
import type { ToolPayloadTrimParams } from './params.ts'

interface Worded {
  readonly p: ToolPayloadTrimParams
  readonly name: string
  readonly callId: string
  readonly key: string
  /** Sentence kind (a constant per call site) → text. */
  readonly texts: Map<string, string>
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
  if (
    !entry ||
    entry.p !== p ||
    entry.name !== f.name ||
    entry.callId !== f.callId ||
    entry.key !== f.key
  ) {
    worded.set(part, { p, name: f.name, callId: f.callId, key: f.key, texts: new Map() })
    return undefined
  }
  return entry.texts.get(kind)
}

/** Keep a sentence worded after {@link recall} missed (same part, same kind); returns it. */
export function remember(part: Part, kind: string, text: string): string {
  worded.get(part)?.texts.set(kind, text)
  return text
}
