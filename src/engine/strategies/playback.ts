/**
 * What a step does to the context, as an interface the step's helpers take (`Out`), and the
 * context itself behind it (`direct`).
 *
 * Steps used to record their calls here and play them back on an untouched view only; a re-plan
 * now plays back whole steps on any view whose state a record started from (step-records.ts),
 * so the helpers that took a recorder take the context itself.
 */
import type { ChangeOptions, StrategyContext, SummaryInsert } from '../compaction/context.ts'
import type { ReasonCode } from '../compaction/types.ts'
import type { Part } from '../model.ts'
import type { PartRef } from '../pairing.ts'

/**
 * What the step does to the context: its skips, replacements and inserts. Narrower than
 * `StrategyContext` (not a `Pick` of it): the helpers that take it need no more.
 */
export interface Out {
  skip(group: number, reason: ReasonCode, detail: string, ref?: PartRef): void
  replace(
    ref: PartRef,
    replacement: Part | null,
    kind: 'stub' | 'trim',
    reason: ReasonCode,
    detail: string,
    options: ChangeOptions,
  ): boolean
  insert(
    summary: SummaryInsert,
    reason: ReasonCode,
    detail: string,
    options: ChangeOptions,
  ): boolean
  /** Is the part protected (`ctx.protectionOf(group, ref) !== null`)? */
  isProtected(group: number, ref: PartRef): boolean
}

/** The context itself. */
export function direct(ctx: StrategyContext): Out {
  return {
    skip: (group, reason, detail, ref) => ctx.skip(group, reason, detail, ref),
    replace: (ref, replacement, kind, reason, detail, options) =>
      ctx.replace(ref, replacement, kind, reason, detail, options),
    insert: (summary, reason, detail, options) => ctx.insert(summary, reason, detail, options),
    isProtected: (group, ref) => ctx.protectionOf(group, ref) !== null,
  }
}
