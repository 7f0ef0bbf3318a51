/**
 * What a re-plan can take from the last one over the same collection of results. A plan is a pure
 * function of the records and the params' values, and an untouched view (every re-plan, every
 * config edit in the app) collects the very same records array per prepared conversation, limit
 * and stub template (collect.ts). So the plan, its sentences and its droppable groups are kept on
 * that array (a WeakMap: they go with the prepared conversation) and looked up by the params'
 * VALUE (JSON), never by the params object: every edit hands the engine a fresh, validated copy.
 * An edit of the step's own params is simply another value, planned afresh.
 */
import type { ResultInfo } from './collect.ts'
import { pinCollection } from './collection-log.ts'
import type { PlanIndex } from './plan-index.ts'
import type { PlanStructure } from './plan-structure.ts'
import type { PlanParams } from './plan.ts'
import type { Act, ActsMade, WordParams, Wording } from './words.ts'
import { recall, remember } from '../../recent-values.ts'

/** The sentences of one params value over one collection. */
export interface SharedWords {
  /** The act per result index, made when first needed. */
  readonly acts: (Act | undefined)[]
  /** What the acts were made from (a copy, kept after the first run): for `donor` to compare. */
  made: ActsMade | undefined
  /** Another value's words over the same collection, to take unchanged acts from (first run). */
  donor: SharedWords | undefined
  /** The lookups sentences take (made with the first act; they read only the params' values). */
  wording: Wording | undefined
}

/** Droppable groups of an untouched view at `limit` (they read the view: untouched only). */
export interface SharedDrops {
  readonly limit: number
  readonly groups: ReadonlyMap<number, number>
}

interface Shared {
  /** Lists a plan builds from the records, per mode and writesMakeStale (plan-index.ts). */
  readonly structures: Map<string, PlanStructure>
  readonly plans: Map<string, PlanIndex>
  readonly words: Map<string, SharedWords>
  /** Per plan key: the groups follow from the plan, not from its sentences. */
  readonly drops: Map<string, SharedDrops>
}

/**
 * Values kept per collection: a session edits a few params back and forth, not hundreds, and each
 * value holds a plan and a sentence per result (megabytes on 10,000 messages, which the garbage
 * collector walks at every re-plan while they live).
 */
const MAX_VALUES = 4

const byResults = new WeakMap<readonly ResultInfo[], Shared>()

function sharedOf(results: readonly ResultInfo[]): Shared {
  let s = byResults.get(results)
  if (!s) {
    s = { structures: new Map(), plans: new Map(), words: new Map(), drops: new Map() }
    byResults.set(results, s)
    // What is kept here is of these very records: a replay must not change them in place.
    pinCollection(results)
  }
  return s
}

/** The params values a plan reads, as one string (the faithful twin gets its own). */
export function planKey(p: PlanParams): string {
  return JSON.stringify([
    p.faithful,
    p.preserveLastN,
    p.maxStubsPerResource,
    p.minToolOutputTokens,
    p.writesMakeStale,
    p.allowedCategories,
    p.deniedCategories,
    p.allowedTools,
    p.deniedTools,
  ])
}

/** The params values the sentences read besides the plan's (the plan key is part of it). */
export function wordsKey(p: PlanParams & WordParams): string {
  return JSON.stringify([planKey(p), p.stubTemplate, p.redactResourceIdentifiers])
}

/** What a plan's lists are built under (`PlanIndex.add` reads no other params). */
const structureKey = (p: PlanParams): string => `${p.faithful} ${p.writesMakeStale}`

/** Lists a shared plan of `results` built under `p`'s mode and writesMakeStale, if one did. */
export function sharedStructure(
  results: readonly ResultInfo[],
  p: PlanParams,
): PlanStructure | undefined {
  return byResults.get(results)?.structures.get(structureKey(p))
}

/** The plan made for `results` under the params value `key`, if one was. */
export function sharedPlan(results: readonly ResultInfo[], key: string): PlanIndex | undefined {
  const plans = byResults.get(results)?.plans
  return plans ? recall(plans, key) : undefined
}

/** Keep `index` as the plan of `results` under `key`: it must never be changed after this. */
export function keepPlan(
  results: readonly ResultInfo[],
  p: PlanParams,
  key: string,
  index: PlanIndex,
): void {
  const { plans, structures } = sharedOf(results)
  remember(plans, key, index, MAX_VALUES)
  // Its lists, for plans of other values to borrow (at most four: two modes × writesMakeStale).
  const skey = structureKey(p)
  if (!structures.has(skey)) structures.set(skey, index.structure)
}

/** The sentences of `results` under the params value `key` (empty the first time). */
export function sharedWords(results: readonly ResultInfo[], key: string): SharedWords {
  const { words } = sharedOf(results)
  let w = recall(words, key)
  if (!w) {
    // The most recently used other value lends the acts its outcomes share (words.ts).
    let donor: SharedWords | undefined
    for (const other of words.values()) if (other.made) donor = other
    w = {
      acts: new Array<Act | undefined>(results.length),
      made: undefined,
      donor,
      wording: undefined,
    }
    remember(words, key, w, MAX_VALUES)
  }
  return w
}

/**
 * Words for one replay call only: a replay's collections change at every call and are never
 * re-planned, so nothing is shared or kept for them (kept, each call's acts and outcome copies
 * stayed alive with its collection and doubled the replay's garbage-collection time). A call
 * words only the few results it changes: its acts start empty, not as an array as long as the
 * collection (which made each call cost a step proportional to every result before it).
 */
export const unsharedWords = (): SharedWords => ({
  acts: [],
  made: undefined,
  donor: undefined,
  wording: undefined,
})

/** Droppable groups kept for `results` under the plan key `key`, if any were. */
export function sharedDrops(results: readonly ResultInfo[], key: string): SharedDrops | undefined {
  const drops = byResults.get(results)?.drops
  return drops ? recall(drops, key) : undefined
}

/** Keep the droppable groups an untouched view found for `results` under the plan key `key`. */
export function keepDrops(results: readonly ResultInfo[], key: string, drops: SharedDrops): void {
  const all = sharedOf(results).drops
  remember(all, key, drops, MAX_VALUES)
}
