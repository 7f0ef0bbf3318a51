/**
 * The planning core: given the tool results of a conversation (in order) with their identities,
 * decide per result what happens. Pure; the strategy turns outcomes into ctx decisions.
 *
 * Faithful (LIP `_perform_compaction`): already-compacted results are not registered; results
 * are grouped by identity; for an identity with ≥ 2 results the policy of its first result
 * decides; every result but the last is stale: stubbed unless `len(text)//4` is below the
 * minimum. Fixed adds: keep the last `preserveLastN` per resource, a later full read supersedes
 * earlier ranged reads of the same file, and beyond `maxStubsPerResource` stubs per resource
 * older stale results are dropped (their whole group, when nothing else lives in it).
 */
import { policyVerdict, type PolicyParams, type ToolCategory } from './categories.ts'
import type { ResourceIdentity } from './identity.ts'

export interface Occurrence {
  /** Position in the ordered list of results. */
  readonly index: number
  readonly group: number
  /** Tool name as the call wrote it. */
  readonly tool: string
  readonly category: ToolCategory
  readonly identity: ResourceIdentity | null
  /** `stub`: carries a stub text; `modified`: changed by an earlier step; `fresh`: original. */
  readonly state: 'fresh' | 'stub' | 'modified'
  /** Flattened text is empty (LIP skips such results). */
  readonly empty: boolean
  /** The size measure compared with the minimum (LIP `len(text)//4`). */
  readonly measure: number
}

export type Outcome =
  | { readonly kind: 'stub'; readonly newer: number; readonly byFullRead: boolean }
  | { readonly kind: 'drop'; readonly newer: number; readonly byFullRead: boolean }
  | { readonly kind: 'denied'; readonly newer: number; readonly why: string }
  | { readonly kind: 'below_min'; readonly newer: number }
  | { readonly kind: 'keep_recent'; readonly newer: number; readonly rank: number }
  | { readonly kind: 'already' }
  /** The newest result of a resource that has stale ones. */
  | { readonly kind: 'newest' }
  /** The only result of its resource. */
  | { readonly kind: 'single' }
  | { readonly kind: 'no_identity' }

export interface PlanParams extends PolicyParams {
  readonly faithful: boolean
  readonly preserveLastN: number
  readonly maxStubsPerResource: number | null
  readonly minToolOutputTokens: number
}

/** Outcome of every occurrence, by index. */
export function plan(occurrences: readonly Occurrence[], p: PlanParams): Outcome[] {
  const out: Outcome[] = occurrences.map(() => ({ kind: 'no_identity' }))
  const byKey = new Map<string, Occurrence[]>()
  for (const o of occurrences) {
    if (o.state !== 'fresh') {
      if (o.identity || o.state === 'stub') out[o.index] = { kind: 'already' }
      if (p.faithful || o.state === 'modified' || !o.identity) continue
    }
    if (!o.identity || (p.faithful && o.empty)) continue
    const list = byKey.get(o.identity.key)
    if (list) list.push(o)
    else byKey.set(o.identity.key, [o])
  }

  // Fixed: the newest full read of each file, for ranged reads to point to.
  const lastFullRead = new Map<string, Occurrence>()
  if (!p.faithful)
    for (const o of occurrences)
      if (o.state === 'fresh' && o.identity?.isFullRead) lastFullRead.set(o.identity.key, o)

  const decideStale = (
    o: Occurrence,
    first: Occurrence,
    newer: number,
    byFullRead: boolean,
  ): Outcome => {
    const verdict = policyVerdict(first.tool, first.category, p, p.faithful)
    if (!verdict.allowed) return { kind: 'denied', newer, why: verdict.why }
    if (p.minToolOutputTokens > 0 && o.measure < p.minToolOutputTokens)
      return { kind: 'below_min', newer }
    return { kind: 'stub', newer, byFullRead }
  }

  for (const list of byKey.values()) {
    const fresh = list.filter((o) => o.state === 'fresh')
    const first = list[0] as Occurrence
    const newest = fresh[fresh.length - 1]
    const keep = p.faithful ? 1 : p.preserveLastN
    const kept = new Set(fresh.slice(-keep))
    for (const o of fresh) {
      // A later full read of the same file supersedes a ranged read (fixed only).
      const full = o.identity?.fullReadKey ? lastFullRead.get(o.identity.fullReadKey) : undefined
      const coveredBy = full && full.index > o.index ? full : undefined
      if (coveredBy) {
        out[o.index] = decideStale(o, o, coveredBy.index, true)
        continue
      }
      if (!newest || fresh.length === 1) {
        out[o.index] = { kind: 'single' }
        continue
      }
      if (o === newest) out[o.index] = { kind: 'newest' }
      else if (kept.has(o))
        out[o.index] = {
          kind: 'keep_recent',
          newer: newest.index,
          rank: fresh.length - fresh.indexOf(o),
        }
      else out[o.index] = decideStale(o, first, newest.index, false)
    }
    if (!p.faithful && p.maxStubsPerResource !== null) limitStubs(list, out, p.maxStubsPerResource)
  }
  return out
}

/** Newest stubs first: beyond `max` (existing stubs count), stale results become drops. */
function limitStubs(list: readonly Occurrence[], out: Outcome[], max: number): void {
  let stubs = 0
  for (let i = list.length - 1; i >= 0; i--) {
    const o = list[i] as Occurrence
    const outcome = out[o.index] as Outcome
    if (o.state === 'stub') stubs++
    else if (outcome.kind === 'stub') {
      if (stubs < max) stubs++
      else out[o.index] = { kind: 'drop', newer: outcome.newer, byFullRead: outcome.byFullRead }
    }
  }
}

/** Does this outcome replace or remove the result? */
export const removes = (o: Outcome | undefined): boolean => o?.kind === 'stub' || o?.kind === 'drop'
