/**
 * What a step does to the context, as an interface the step's helpers take (`Out`): the
 * `StrategyContext` itself is one (no wrapper per call: a replay runs a step at every call).
 *
 * Steps used to record their calls here and play them back on an untouched view only; a re-plan
 * now plays back whole steps on any view whose state a record started from (step-records.ts),
 * so the helpers that took a recorder take the context itself.
 */
import type { ChangeOptions, SummaryInsert } from '../compaction/context.ts'
import type { Sentence } from '../compaction/sentence.ts'
import type { ReasonCode } from '../compaction/types.ts'
import type { Part } from '../model.ts'
import type { PartRef } from '../pairing.ts'

/**
 * What the step does to the context: its skips, replacements and inserts. Narrower than
 * `StrategyContext` (not a `Pick` of it): the helpers that take it need no more.
 */
export interface Out {
  skip(group: number, reason: ReasonCode, sentence: Sentence, ref?: PartRef): void
  replace(
    ref: PartRef,
    replacement: Part | null,
    kind: 'stub' | 'trim',
    reason: ReasonCode,
    sentence: Sentence,
    options: ChangeOptions,
    /** The replacement's price when the step has it (`StrategyContext.replace`'s `known`). */
    known?: number,
  ): boolean
  insert(
    summary: SummaryInsert,
    reason: ReasonCode,
    sentence: Sentence,
    options: ChangeOptions,
  ): boolean
  /** Is the part protected (`ctx.protectionOf(group, ref) !== null`)? */
  isProtected(group: number, ref: PartRef): boolean
}
