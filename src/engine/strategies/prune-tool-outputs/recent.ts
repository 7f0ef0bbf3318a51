/**
 * The prune walk never prunes inside the last `protectTurns` user turns, but it reads them at every
 * model call of a replay (about 40 messages on a typical session) to find where they end and the
 * first summary among them. From one call to the next those messages are the same, and what the
 * walk reads of them changes only if the view changed, a message there became a summary (its
 * envelope's flag arrived later), or a new user turn pushed the oldest of them out. So a replay
 * walk keeps what it read there (a segment), and the next walk reads only the messages that are
 * new since, then goes on below the segment (issue 14: opencode's replays 12–14% faster).
 *
 * Replay only, as the frontier (frontier.ts): the equality test and the frontier property test
 * hold the replay walk to the full walk's decisions.
 */
import type { StrategyContext } from '../../compaction/context.ts'
import { PerViewParams, stillHolds, type ReadUnder } from './kept.ts'
import type { PruneParams } from './walk.ts'
import type { WalkFacts } from './walk-facts.ts'

/**
 * What a walk read inside the recent turns, from its limit down to where it left them. Only what
 * can still matter once a walk leaves them: the turns counted and the first summary met (it stops
 * the walk at the next boundary below). The rest the walk notes there (boundaries, kept and
 * cleared outputs) lies above where it leaves, and the frontier keeps only what lies below that
 * (`below` ≤ the message where the walk left the recent turns, frontier.ts).
 */
export interface RecentSegment extends ReadUnder {
  /** The segment covers messages `end + 1 … limit − 1`. */
  /** The first message below the recent turns (where the walk left them). */
  readonly end: number
  /** User turns counted inside the segment. */
  readonly turns: number
  /** The id of the first summary met inside it, walking down. */
  readonly summaryPassed: string | null
}

const segments = new PerViewParams<RecentSegment>()

/**
 * The segment an earlier walk over this view recorded, if it still holds at this limit. The walk
 * must still reach its top with no user turn counted (see {@link canJoin}).
 */
export function recentOf(
  ctx: StrategyContext,
  p: PruneParams,
  facts: WalkFacts,
): RecentSegment | null {
  const s = segments.get(ctx.view, p)
  return s && stillHolds(ctx, facts, s, ctx.view.limit) ? s : null
}

/**
 * Can the walk, at the segment's top with `turns` counted above it, take the segment's answers?
 * Only if no user turn came since (each message inside would otherwise count one more turn), and
 * nothing it checks at each message would have stopped or changed it inside the segment: the
 * frontier lies below it (else a message inside would drop or reach the frontier) and so does the
 * oldest message still held (else the walk would stop inside).
 */
export function canJoin(
  s: RecentSegment,
  turns: number,
  frontierBelow: number | null,
  lowest: number,
): boolean {
  return (
    turns === 0 && (frontierBelow === null || frontierBelow <= s.end + 1) && lowest <= s.end + 1
  )
}

/** Keep what this walk read inside the recent turns, for the next walk over this view. */
export function recordRecent(ctx: StrategyContext, p: PruneParams, s: RecentSegment): void {
  segments.set(ctx.view, p, s)
}

/** Forget the segment (a walk that did not leave the recent turns normally). */
export function forgetRecent(ctx: StrategyContext, p: PruneParams): void {
  segments.delete(ctx.view, p)
}
