/**
 * Compare: two configs run on the same conversation, with the groups whose status or explaining
 * decision differ, and what each costs per session (a replay each: the cost needs every call).
 */
import { isChange } from '../engine/compaction/run.ts'
import type { Decision } from '../engine/compaction/types.ts'
import type { Conversation } from '../engine/model.ts'
import type { TextCounter } from '../engine/tokens/types.ts'
import type { CompactionConfig } from '../config/schema.ts'
import type { ConfigIssue } from '../config/validate.ts'
import { compactOnce, type Once } from './once.ts'
import type { CompareDifference, Compared, CompareSide, GroupStatus } from './types.ts'
import { groupStatuses, groupTokens, preparedEntry, resolveConfig } from './run.ts'
import { pushAll } from '../engine/arrays.ts'

export type CompareOutcome =
  | { readonly kind: 'compared'; readonly result: Compared }
  | { readonly kind: 'invalid'; readonly issues: readonly ConfigIssue[] }

/**
 * The decision that explains each group, as the table shows it: the first changing one
 * (exclude/stub/trim/insert) wins, otherwise the first `protected` one; skips and fail-opens
 * never explain a group. Same rule as the UI's `decisionsByGroup`, so a listed difference is one
 * the user can see in the table's reason column.
 */
export function explainingDecisions(decisions: readonly Decision[]): Map<string, Decision> {
  const map = new Map<string, Decision>()
  for (const d of decisions) {
    if (!d.groupId) continue
    const current = map.get(d.groupId)
    if (isChange(d)) {
      if (!current || !isChange(current)) map.set(d.groupId, d)
    } else if (d.kind === 'protected' && !current) {
      map.set(d.groupId, d)
    }
  }
  return map
}

/** What a side says about one group; two sides differ when these keys differ. */
const decisionKey = (d: Decision | undefined): string =>
  d ? `${d.kind}\u0000${d.strategy}\u0000${d.reason}` : ''

interface Side {
  readonly config: CompactionConfig
  readonly once: Once
  readonly status: readonly GroupStatus[]
  readonly after: Float64Array
  readonly explained: Map<string, Decision>
}

function side(
  conversation: Conversation,
  counter: TextCounter,
  config: CompactionConfig,
  once: Once,
): Side {
  const entry = preparedEntry(conversation, counter)
  const ids = entry.prepared.grouping.groups.map((g) => g.id)
  return {
    config,
    once,
    status: groupStatuses(ids, once.result.decisions),
    after: groupTokens(entry.prepared, entry.pricing, once.result.projection).after,
    explained: explainingDecisions(once.result.decisions),
  }
}

function compareSide(s: Side): CompareSide {
  return {
    configName: s.config.name,
    before: s.once.before,
    after: s.once.after,
    changes: s.once.result.changes,
    invariantsOk: s.once.result.invariants.ok,
    cost: {
      before: s.once.cost?.before ?? null,
      after: s.once.cost?.after ?? null,
      cacheRewrites: s.once.cost?.cacheRewrites ?? null,
    },
    risk: s.once.risk,
  }
}

/**
 * Run `a` and `b` once each (no replay) and list, in group order, the groups whose status or
 * explaining decision (kind, strategy, reason) differ, with each side's tokens after. Issues of
 * `b` are prefixed `b.` so the user can tell which config is wrong; `a` is usually the working
 * config, whose issue paths the editor already knows.
 */
export async function compareConfigs(
  conversation: Conversation,
  counter: TextCounter,
  a: unknown,
  b: unknown,
): Promise<CompareOutcome> {
  const ra = resolveConfig(a, undefined)
  const rb = resolveConfig(b, undefined)
  const issues: ConfigIssue[] = []
  if (!ra.ok) pushAll(issues, ra.issues)
  if (!rb.ok)
    pushAll(
      issues,
      rb.issues.map((i) => ({ path: `b.${i.path}`, message: i.message })),
    )
  if (!ra.ok || !rb.ok) return { kind: 'invalid', issues }

  const sa = side(
    conversation,
    counter,
    ra.config,
    await compactOnce(conversation, counter, ra.config, { withCost: true }),
  )
  const sb = side(
    conversation,
    counter,
    rb.config,
    await compactOnce(conversation, counter, rb.config, { withCost: true }),
  )
  const groups = preparedEntry(conversation, counter).prepared.grouping.groups
  const differing: CompareDifference[] = []
  groups.forEach((g, i) => {
    const da = sa.explained.get(g.id)
    const db = sb.explained.get(g.id)
    const statusA = sa.status[i] ?? 'kept'
    const statusB = sb.status[i] ?? 'kept'
    if (statusA === statusB && decisionKey(da) === decisionKey(db)) return
    differing.push({
      groupId: g.id,
      index: i,
      kind: g.kind,
      a: {
        status: statusA,
        after: sa.after[i] ?? 0,
        reason: da?.reason ?? '',
        strategy: da?.strategy ?? '',
        usedLater: sa.once.usedLater.has(g.id),
      },
      b: {
        status: statusB,
        after: sb.after[i] ?? 0,
        reason: db?.reason ?? '',
        strategy: db?.strategy ?? '',
        usedLater: sb.once.usedLater.has(g.id),
      },
    })
  })
  return { kind: 'compared', result: { a: compareSide(sa), b: compareSide(sb), differing } }
}
