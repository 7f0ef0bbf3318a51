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
import { covers } from './shell.ts'

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

/**
 * What made a result stale: a newer result with the same key, a later full read of the file, a
 * later read whose lines cover these (fixed), or a later write to the file (fixed).
 */
export type StaleCause = 'newer' | 'full_read' | 'covering_read' | 'write'

export type Outcome =
  | { readonly kind: 'stub'; readonly newer: number; readonly cause: StaleCause }
  | { readonly kind: 'drop'; readonly newer: number; readonly cause: StaleCause }
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
  /** Fixed: a write to a file makes earlier reads of it stale. */
  readonly writesMakeStale: boolean
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
    cause: StaleCause,
  ): Outcome => {
    const verdict = policyVerdict(first.tool, first.category, p, p.faithful)
    if (!verdict.allowed) return { kind: 'denied', newer, why: verdict.why }
    if (p.minToolOutputTokens > 0 && o.measure < p.minToolOutputTokens)
      return { kind: 'below_min', newer }
    return { kind: 'stub', newer, cause }
  }
  const later = p.faithful ? null : laterReadsAndWrites(occurrences, p.writesMakeStale)

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
        out[o.index] = decideStale(o, o, coveredBy.index, 'full_read')
        continue
      }
      // Fixed: a later read that shows these lines of the file (any tool), else a later write.
      const cover = later?.cover(o)
      if (cover) {
        out[o.index] = decideStale(o, o, cover.index, cover.cause)
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
      else out[o.index] = decideStale(o, first, newest.index, 'newer')
    }
    // Fixed: a result no newer read makes stale may still be outdated by a later write. A newer
    // copy of the same resource, when there is one, is the better pointer, so this comes last.
    if (later)
      for (const o of fresh) {
        const kind = out[o.index]?.kind
        if (kind !== 'newest' && kind !== 'single' && kind !== 'keep_recent') continue
        const write = later.write(o)
        if (write !== undefined) out[o.index] = decideStale(o, o, write, 'write')
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
      else out[o.index] = { kind: 'drop', newer: outcome.newer, cause: outcome.cause }
    }
  }
}

/** Does this outcome replace or remove the result? */
export const removes = (o: Outcome | undefined): boolean => o?.kind === 'stub' || o?.kind === 'drop'

/**
 * Fixed mode: for a read, the first later fresh read of the same file whose lines cover it (a
 * different key: same-key results are handled by the newest rule), and the first later write to
 * the one file it shows. Writes count whatever became of their own result (a stubbed edit still
 * happened).
 */
function laterReadsAndWrites(occurrences: readonly Occurrence[], writesMakeStale: boolean) {
  const readsOf = new Map<string, Occurrence[]>()
  const writesOf = new Map<string, number[]>()
  for (const o of occurrences) {
    const id = o.identity
    if (!id) continue
    if (o.state === 'fresh' && id.lines && id.reads?.length === 1) {
      const path = id.reads[0] as string
      const list = readsOf.get(path)
      if (list) list.push(o)
      else readsOf.set(path, [o])
    }
    if (writesMakeStale)
      for (const path of id.writes ?? []) {
        const list = writesOf.get(path)
        if (list) list.push(o.index)
        else writesOf.set(path, [o.index])
      }
  }
  return {
    cover(o: Occurrence): { index: number; cause: StaleCause } | undefined {
      const id = o.identity
      if (!id?.lines || id.reads?.length !== 1) return undefined
      for (const r of readsOf.get(id.reads[0] as string) ?? []) {
        const rl = r.identity?.lines
        if (r.index <= o.index || !rl || r.identity?.key === id.key) continue
        if (!covers(rl, id.lines)) continue
        const full = rl.kind === 'lines' && rl.start === 1 && rl.end === null
        return { index: r.index, cause: full ? 'full_read' : 'covering_read' }
      }
      return undefined
    },
    write(o: Occurrence): number | undefined {
      // One file only: a command that read several files still shows the ones not written, and
      // no newer result repeats them.
      const reads = o.identity?.reads
      if (reads?.length !== 1) return undefined
      let first: number | undefined
      for (const w of writesOf.get(reads[0] as string) ?? [])
        if (w > o.index && (first === undefined || w < first)) first = w
      return first
    },
  }
}
