import type { StrategyContext } from '../../compaction/context.ts'
import type { PartRef } from '../../pairing.ts'
import { clearedInput, clearingOf, savedBy, type Edit, type ToolUse } from './plan.ts'

/** What the params say about planning one use (built once per parsed params object). */
export interface PlanRules {
  readonly excluded: ReadonlySet<string>
  readonly inputsOf: (name: string) => boolean
  readonly placeholder: string
}

/** The params fields planning reads (a structural subset of the strategy's parsed params). */
export interface RuleParams {
  readonly excludeTools: readonly string[]
  readonly clearToolInputs: boolean | readonly string[]
  readonly placeholder: string
}

const rulesCache = new WeakMap<RuleParams, PlanRules>()

export function rulesOf(p: RuleParams): PlanRules {
  const hit = rulesCache.get(p)
  if (hit) return hit
  const { clearToolInputs } = p
  const made: PlanRules = {
    excluded: new Set(p.excludeTools),
    inputsOf: (name) =>
      clearToolInputs === true ||
      (Array.isArray(clearToolInputs) && clearToolInputs.includes(name)),
    placeholder: p.placeholder,
  }
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

/**
 * Plan one older use: its result(s) become the placeholder, and its input `{}` when asked.
 * Records the same skips, in the same order, as planning the whole list does (it is that loop's
 * body): the replay carries these per use and re-plans only the uses a change touched.
 */
export function planUse(ctx: StrategyContext, rules: PlanRules, u: ToolUse): UsePlan {
  const tool = u.info.name
  const callRef: PartRef = { message: u.info.message, part: u.info.part }
  if (rules.excluded.has(tool)) {
    ctx.skip(
      u.group,
      'denied_by_policy',
      `Clear tool uses: ${tool} is in exclude_tools, never cleared`,
      callRef,
    )
    return NOTHING
  }
  const edits: Edit[] = []
  let saves = 0
  let turnBound = false
  let groupBound = false
  const edit = (ref: PartRef, replacement: Edit['replacement'], what: Edit['what']) => {
    const protection = ctx.protectionOf(u.group, ref)
    if (protection === 'recent_turn') turnBound = true
    else if (protection && !SETTLED.has(protection)) groupBound = true
    const s = protection ? 0 : savedBy(ctx, ref, replacement)
    saves += s
    edits.push({ ref, group: u.group, replacement, what, tool, saves: s })
  }
  for (const r of u.info.results) {
    const info = ctx.pairing.results[r]
    if (!info || !ctx.visible(info.message)) continue
    const clearing = clearingOf(ctx, info, r, rules.placeholder)
    if (clearing === null) continue
    const ref: PartRef = { message: info.message, part: info.part }
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
    edit(ref, clearing.replacement, 'result')
  }
  const call = rules.inputsOf(tool) ? ctx.view.part(callRef) : null
  if (call?.kind === 'tool_call' && call.argsRaw !== '{}')
    edit(callRef, clearedInput(call), 'input')
  return edits.length === 0 && !turnBound && !groupBound
    ? NOTHING
    : { edits, saves, turnBound, groupBound }
}

/** Plan every use of `older` from scratch (the whole-list form; replay uses the carried one). */
export function planAll(ctx: StrategyContext, rules: PlanRules, older: readonly ToolUse[]): Edit[] {
  const edits: Edit[] = []
  for (const u of older) for (const e of planUse(ctx, rules, u).edits) edits.push(e)
  return edits
}
