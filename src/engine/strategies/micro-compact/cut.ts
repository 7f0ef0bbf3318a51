/**
 * micro_compact's collapse of a result tool_result_budget cut, from its original.
 *
 * A cut result is the original's first `max` characters plus falai's notice, and an edit of
 * maxToolResultChars makes a new cut of every long result, so micro_compact collapsed all of them
 * again (about 1.3M characters through the whitespace regex per edit on the bench's 10,000
 * messages). Collapsing every whitespace run to one space is local: the collapse of a prefix,
 * extended by more text, is the collapse of the longer prefix — the two halves' collapses joined,
 * with one space dropped where a whitespace run crosses the join. So the longest collapsed prefix
 * of each original is kept, a longer cut extends it, and the notice is joined the same way.
 */
import type { ToolResultPart } from '../../model.ts'

/** A cut part's original text and how many of its characters the cut kept. */
interface Cut {
  readonly original: ToolResultPart
  readonly text: string
  readonly max: number
}

const cuts = new WeakMap<ToolResultPart, Cut>()

/** The longest prefix of an original collapsed so far: its length and `raw` collapse. */
const prefixes = new WeakMap<ToolResultPart, { readonly length: number; readonly raw: string }>()

const SPACE = /\s/
const RUNS = /\s+/g
/** The whole of falai's notice (TRAILING_NOTICE in micro-compact.ts, anchored at both ends). */
const WHOLE_NOTICE = /^\n\n\[Truncated: \d+ chars total, showing first \d+\]$/

/** Every whitespace run becomes one space (no trim): collapseWhitespace before its trim. */
function raw(text: string): string {
  return text.replace(RUNS, ' ')
}

/**
 * `raw(a + b)` from `raw(a)` and `raw(b)`, given the last character of `a` and the first of `b`:
 * a whitespace run that crosses the join is one space.
 */
function joined(rawA: string, lastOfA: string, rawB: string, firstOfB: string): string {
  return SPACE.test(lastOfA) && SPACE.test(firstOfB) ? rawA + rawB.slice(1) : rawA + rawB
}

/**
 * Record that `cut` is `text.slice(0, max)` followed by falai's notice, where `text` is the text
 * of `original` (tool_result_budget calls this for every cut it makes).
 */
export function noteCut(cut: ToolResultPart, original: ToolResultPart, text: string, max: number) {
  cuts.set(cut, { original, text, max })
}

/** `raw(text.slice(0, max))`, extending the original's longest collapsed prefix when it is shorter. */
function rawPrefix(original: ToolResultPart, text: string, max: number): string {
  const known = prefixes.get(original)
  if (known && known.length === max) return known.raw
  if (known && known.length < max) {
    const more = raw(text.slice(known.length, max))
    const made = joined(known.raw, text[known.length - 1] ?? '', more, text[known.length] ?? '')
    prefixes.set(original, { length: max, raw: made })
    return made
  }
  const made = raw(text.slice(0, max))
  if (!known) prefixes.set(original, { length: max, raw: made })
  return made
}

/**
 * The collapse of a cut result's text `cutText` — `collapseWhitespace(cutText)` (faithful) or
 * `collapseKeepingNotice(cutText)` (fixed) — from its original; undefined for a part no cut made
 * (or whose text is not the cut's, which never happens: then the caller collapses it itself).
 */
export function collapseCut(
  part: ToolResultPart,
  cutText: string,
  faithful: boolean,
): string | undefined {
  const cut = cuts.get(part)
  if (!cut) return undefined
  const notice = cutText.slice(cut.max)
  if (!WHOLE_NOTICE.test(notice)) return undefined
  const prefix = rawPrefix(cut.original, cut.text, cut.max)
  if (!faithful) return prefix.trim() + notice
  return joined(prefix, cut.text[cut.max - 1] ?? '', raw(notice), notice[0] ?? '').trim()
}
