/**
 * One compaction of the loaded conversation with a validated config, no replay: what a sweep
 * point and each side of a comparison need. The prepared conversation comes from the run cache,
 * so N configs on one conversation price it once.
 */
import type { CompactionResult } from '../engine/compaction/run.ts'
import { sessionCost, type SessionCost } from '../engine/cost/summary.ts'
import type { Conversation } from '../engine/model.ts'
import type { TextCounter } from '../engine/tokens/types.ts'
import type { CompactionConfig } from '../config/schema.ts'
import type { RiskFigures } from './types-risk.ts'
import { riskFigures, riskOfRun } from './risk.ts'
import { preparedEntry } from './cache.ts'
import { compactPrepared, offlineDeps, replayPrepared } from './run.ts'

export interface Once {
  readonly result: CompactionResult
  readonly before: number
  readonly after: number
  /** Invariant checks that failed. */
  readonly violations: number
  /** The session's cost, when asked for (it needs a replay of every call). */
  readonly cost?: SessionCost
  /** Removed content the agent used later (the index is shared across configs). */
  readonly risk: RiskFigures
  /** Ids of the groups whose removed content the agent used later. */
  readonly usedLater: ReadonlySet<string>
}

export async function compactOnce(
  conversation: Conversation,
  counter: TextCounter,
  config: CompactionConfig,
  options: { readonly withCost?: boolean } = {},
): Promise<Once> {
  const entry = preparedEntry(conversation, counter)
  // Same deps as a run: the offline digest summariser, so nothing ever leaves the browser.
  const deps = offlineDeps(counter)
  const result = await compactPrepared(entry.prepared, config, deps)
  const risk = riskOfRun(entry.prepared, result)
  const cost = options.withCost
    ? sessionCost(await replayPrepared(entry.prepared, config, deps))
    : undefined
  return {
    ...(cost ? { cost } : {}),
    result,
    // The same reconciled figures as the headline (the next call's context), never a recount.
    before: result.tokensBefore,
    after: result.tokensAfter,
    violations: result.invariants.checks.filter((c) => !c.ok).length,
    risk: riskFigures(risk),
    usedLater: new Set(risk.items.map((i) => i.groupId)),
  }
}
