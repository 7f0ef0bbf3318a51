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
import type { PolicyParams, ToolCategory } from './categories.ts'
import type { ResourceIdentity } from './identity.ts'
import { PlanIndex } from './plan-index.ts'

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
  const index = new PlanIndex(p)
  index.addAll(occurrences)
  return index.out
}

/** Does this outcome replace or remove the result? */
export const removes = (o: Outcome | undefined): boolean => o?.kind === 'stub' || o?.kind === 'drop'
