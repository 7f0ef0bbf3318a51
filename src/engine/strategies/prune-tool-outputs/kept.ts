/**
 * What a replay walk keeps from one model call to the next, per view and params (the frontier,
 * frontier.ts, and the recent turns' reading, recent.ts), and the test both pass before a later
 * walk uses them again.
 */
import type { StrategyContext } from '../../compaction/context.ts'
import type { PruneParams } from './walk.ts'
import { summaryArrivesIn, type WalkFacts } from './walk-facts.ts'

/** What a kept reading was taken under. */
export interface ReadUnder {
  /** The walk's limit. */
  readonly limit: number
  /** The view's change mark. */
  readonly mark: number
  /** How many summaries the view had inserted (an insert is not in the change log). */
  readonly summaries: number
}

/**
 * Does a reading of the messages below `upTo`, taken under `r`, still hold for this walk? Not if
 * the view changed there since, inserted a summary, or went back; nor if a message read then as
 * no boundary has since become one (its envelope's summary flag arrived, walk-facts.ts).
 */
export function stillHolds(
  ctx: StrategyContext,
  facts: WalkFacts,
  r: ReadUnder,
  upTo: number,
): boolean {
  const limit = ctx.view.limit
  return (
    limit >= r.limit &&
    r.summaries === ctx.view.summaries().length &&
    !ctx.view.changedBefore(r.mark, upTo) &&
    !summaryArrivesIn(facts, r.limit, limit)
  )
}

/** Values kept per view and params object (both held weakly). */
export class PerViewParams<T> {
  private readonly byView = new WeakMap<object, WeakMap<PruneParams, T>>()

  get(view: object, p: PruneParams): T | undefined {
    return this.byView.get(view)?.get(p)
  }

  set(view: object, p: PruneParams, value: T): void {
    let byParams = this.byView.get(view)
    if (!byParams) {
      byParams = new WeakMap()
      this.byView.set(view, byParams)
    }
    byParams.set(p, value)
  }

  delete(view: object, p: PruneParams): void {
    this.byView.get(view)?.delete(p)
  }
}
