/**
 * A decision's sentence, written when it is read (issue 14). A replay decides again at every
 * model call and keeps what it decided, a re-plan records every skip, but a view shows a handful
 * of those sentences and a report writes each one once. So a step that decides in a loop hands
 * over the function that writes its sentence, not the text: the text is made at display or
 * report time, and the many never read are never made.
 *
 * The function quotes values fixed when the decision is made (consts, never a counter the loop
 * changes afterwards), so the text is the same whenever, and however often, it is read. The
 * corpus equality test reads every sentence after the run and holds them to the text written
 * before this change.
 */
export type Sentence = string | (() => string)

/** The text of a sentence. */
export function written(sentence: Sentence): string {
  return typeof sentence === 'string' ? sentence : sentence()
}

interface Said {
  readonly sentence: Sentence
}

/** A decision's sentence as text (what reports, views and tests read); none for no decision. */
export function detailOf(decision: Said): string
export function detailOf(decision: Said | undefined): string | undefined
export function detailOf(decision: Said | undefined): string | undefined {
  return decision === undefined ? undefined : written(decision.sentence)
}

/**
 * A `JSON.stringify` replacer that writes sentences: a function is no JSON value, and without it a
 * decision's sentence would silently go missing from the text.
 */
export function writingSentences(key: string, value: unknown): unknown {
  return key === 'sentence' && typeof value === 'function' ? (value as () => string)() : value
}
