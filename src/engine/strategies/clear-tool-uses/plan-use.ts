import type { StrategyContext } from '../../compaction/context.ts'
import type { PartRef } from '../../pairing.ts'
import {
  clearedInput,
  clearingOf,
  replacementPrice,
  savedBy,
  type ClearedTo,
  type Edit,
  type ToolUse,
} from './plan.ts'

/** What the params say about planning one use (built once per parsed params object). */
export interface PlanRules {
  readonly excluded: ReadonlySet<string>
  inputsOf(name: string): boolean
  readonly placeholder: string
}

/** The params fields planning reads (a structural subset of the strategy's parsed params). */
export interface RuleParams {
  readonly excludeTools: readonly string[]
  readonly clearToolInputs: boolean | readonly string[]
  readonly placeholder: string
}

const rulesCache = new WeakMap<RuleParams, PlanRules>()

/**
 * The rules as a class: every re-plan parses new params, and a closure made per params object was
 * a new call target for the planners' optimised code each time ("wrong call target": planRows
 * was compiled again in the first re-plans after a load). A method is one function for all.
 */
class Rules implements PlanRules {
  readonly excluded: ReadonlySet<string>
  readonly placeholder: string
  private readonly inputs: boolean | readonly string[]

  constructor(p: RuleParams) {
    this.excluded = new Set(p.excludeTools)
    this.inputs = p.clearToolInputs
    this.placeholder = p.placeholder
  }

  inputsOf(name: string): boolean {
    const inputs = this.inputs
    return inputs === true || (Array.isArray(inputs) && inputs.includes(name))
  }
}

export function rulesOf(p: RuleParams): PlanRules {
  const hit = rulesCache.get(p)
  if (hit) return hit
  const made = new Rules(p)
  rulesCache.set(p, made)
  return made
}

/** The edits clearing one older use would make, in order, with what they free. */
export interface UsePlan {
  readonly edits: readonly Edit[]
  readonly saves: number
  /**
   * A `recent_turn` protection refused (zeroed) one of its edits: that protection lifts as later
   * turns arrive, so a carried plan must redo this use when the last turn moves.
   */
  readonly turnBound: boolean
  /**
   * A protection that depends on which of its group's messages are in the current context
   * (`out_of_context`, `upstream_summary`, or one this planner does not know) refused one of its
   * edits: a carried plan must redo this use when a message of its group is revealed.
   */
  readonly groupBound: boolean
}

const NOTHING: UsePlan = { edits: [], saves: 0, turnBound: false, groupBound: false }

/**
 * Protections that stay put for an older use until a message it reads changes or is revealed:
 * static ones, and a pending call (its own part; it ends when its result is revealed). Latest
 * thinking protects reasoning parts only, never a tool call or result.
 */
const SETTLED = new Set(['system', 'pinned', 'protected_tool', 'pending_call', 'latest_thinking'])

/** `planUseInto` found a `recent_turn` protection (see {@link UsePlan.turnBound}). */
const TURN_BOUND = 1
/** `planUseInto` found a context protection (see {@link UsePlan.groupBound}). */
const GROUP_BOUND = 2

/** Plan one older use on its own (the carried replay plan keeps one per use). */
export function planUse(ctx: StrategyContext, rules: PlanRules, u: ToolUse): UsePlan {
  const edits: Edit[] = []
  const bound = planUseInto(ctx, rules, u, edits)
  if (edits.length === 0 && bound === 0) return NOTHING
  let saves = 0
  for (const e of edits) saves += e.saves
  return {
    edits,
    saves,
    turnBound: (bound & TURN_BOUND) !== 0,
    groupBound: (bound & GROUP_BOUND) !== 0,
  }
}

/**
 * Plan one older use into `out`: its result(s) become the placeholder, and its input `{}` when
 * asked. Records the same skips, in the same order, as the whole-list plan (it is that loop's
 * body). Returns the protections met that a later call may lift (TURN_BOUND | GROUP_BOUND bits;
 * numbers, not an object: a re-plan calls this for every older use).
 */
function planUseInto(ctx: StrategyContext, rules: PlanRules, u: ToolUse, out: Edit[]): number {
  const tool = u.info.name
  // Shared address objects (compaction/refs.ts): they end up in this use's decisions.
  const callRef: PartRef = ctx.view.refAt(u.info.message, u.info.part)
  if (rules.excluded.has(tool)) {
    ctx.skip(
      u.group,
      'denied_by_policy',
      `Clear tool uses: ${tool} is in exclude_tools, never cleared`,
      callRef,
    )
    return 0
  }
  let bound = 0
  for (const r of u.info.results) {
    const info = ctx.pairing.results[r]
    if (!info || !ctx.visible(info.message)) continue
    const clearing = clearingOf(ctx, info, r, rules.placeholder)
    if (clearing === null) continue
    const ref: PartRef = ctx.view.refAt(info.message, info.part)
    if (clearing === 'cleared') {
      if (ctx.recordNonChanges)
        ctx.skip(
          u.group,
          'already_compacted',
          `Clear tool uses: the ${tool} result is already cleared`,
          ref,
        )
      continue
    }
    bound |= edit(ctx, u, ref, clearing.replacement, 'result', out, clearing)
  }
  const call = rules.inputsOf(tool) ? ctx.view.part(callRef) : null
  if (call?.kind === 'tool_call' && call.argsRaw !== '{}')
    bound |= edit(ctx, u, callRef, clearedInput(call), 'input', out, null)
  return bound
}

/** Push one edit with what it frees; returns the bound bit of the protection that refused it. */
function edit(
  ctx: StrategyContext,
  u: ToolUse,
  ref: PartRef,
  replacement: Edit['replacement'],
  what: Edit['what'],
  out: Edit[],
  cleared: ClearedTo | null,
): number {
  const protection = ctx.protectionOf(u.group, ref)
  const price = !protection && cleared ? replacementPrice(ctx, ref, cleared) : -1
  const saves = protection ? 0 : savedBy(ctx, ref, replacement, price)
  out.push({ ref, group: u.group, replacement, what, tool: u.info.name, saves, price })
  if (!protection) return 0
  if (protection === 'recent_turn') return TURN_BOUND
  return SETTLED.has(protection) ? 0 : GROUP_BOUND
}

/** Plan every use of `older` from scratch (the whole-list form; replay uses the carried one). */
export function planAll(ctx: StrategyContext, rules: PlanRules, older: readonly ToolUse[]): Edit[] {
  const edits: Edit[] = []
  for (const u of older) planUseInto(ctx, rules, u, edits)
  return edits
}
