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
import type { PlanIndex } from './plan-index.ts'
import type { PlanParams } from './plan.ts'
import type { Act, WordParams } from './words.ts'

/** The sentences of one params value over one collection, and its droppable groups. */
export interface SharedWords {
  /** The act per result index, made when first needed. */
  readonly acts: (Act | undefined)[]
  /** Droppable groups of an untouched view at `limit` (they read the view: untouched only). */
  drops: { readonly limit: number; readonly groups: Map<number, number> } | undefined
}

interface Shared {
  readonly plans: Map<string, PlanIndex>
  readonly words: Map<string, SharedWords>
}

/** Values kept per collection: a session edits a few params back and forth, not hundreds. */
const MAX_VALUES = 16

const byResults = new WeakMap<readonly ResultInfo[], Shared>()

function sharedOf(results: readonly ResultInfo[]): Shared {
  let s = byResults.get(results)
  if (!s) {
    s = { plans: new Map(), words: new Map() }
    byResults.set(results, s)
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

/** The plan made for `results` under the params value `key`, if one was. */
export function sharedPlan(results: readonly ResultInfo[], key: string): PlanIndex | undefined {
  return byResults.get(results)?.plans.get(key)
}

/** Keep `index` as the plan of `results` under `key`: it must never be changed after this. */
export function keepPlan(results: readonly ResultInfo[], key: string, index: PlanIndex): void {
  const { plans } = sharedOf(results)
  if (plans.size >= MAX_VALUES) plans.clear()
  plans.set(key, index)
}

/** The sentences of `results` under the params value `key` (empty the first time). */
export function sharedWords(results: readonly ResultInfo[], key: string): SharedWords {
  const { words } = sharedOf(results)
  let w = words.get(key)
  if (!w) {
    if (words.size >= MAX_VALUES) words.clear()
    w = { acts: new Array<Act | undefined>(results.length), drops: undefined }
    words.set(key, w)
  }
  return w
}
