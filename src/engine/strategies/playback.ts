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

/**
 * The context itself. A class, not a literal of four arrow functions: the literal was made at
 * every call of a replay (thousands), four closures each time.
 */
export function direct(ctx: StrategyContext): Out {
  return new Direct(ctx)
}

class Direct implements Out {
  private readonly ctx: StrategyContext

  constructor(ctx: StrategyContext) {
    this.ctx = ctx
  }

  skip(group: number, reason: ReasonCode, detail: string, ref?: PartRef): void {
    this.ctx.skip(group, reason, detail, ref)
  }

  replace(
    ref: PartRef,
    replacement: Part | null,
    kind: 'stub' | 'trim',
    reason: ReasonCode,
    detail: string,
    options: ChangeOptions,
  ): boolean {
    return this.ctx.replace(ref, replacement, kind, reason, detail, options)
  }

  insert(
    summary: SummaryInsert,
    reason: ReasonCode,
    detail: string,
    options: ChangeOptions,
  ): boolean {
    return this.ctx.insert(summary, reason, detail, options)
  }

  isProtected(group: number, ref: PartRef): boolean {
    return this.ctx.protectionOf(group, ref) !== null
  }
}
