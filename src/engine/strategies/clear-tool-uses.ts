import { z } from 'zod'
import type { StrategyContext } from '../compaction/context.ts'
import { defineStrategy } from '../compaction/strategy.ts'
import { toolUses, type Edit, type ToolUse } from './clear-tool-uses/plan.ts'
import { planAll, rulesOf } from './clear-tool-uses/plan-use.ts'
import { carriedPlan, type OlderPlan } from './clear-tool-uses/carried.ts'
import { applyRows, includedUses, keptRows, planRows } from './clear-tool-uses/replan.ts'
import { useTableOf } from './clear-tool-uses/table.ts'
import { internParams } from './intern-params.ts'
import { createStepRecords } from './step-records.ts'

const count = (what: string) =>
  z.number().int(`${what} must be a whole number`).min(0, `${what} must be 0 or more`)

const schema = z.object({
  /** Fire when the prompt exceeds this many input tokens (Anthropic default 100 000; null: off). */
  triggerInputTokens: count('triggerInputTokens').nullable().default(100_000),
  /** Fire when there are more than this many tool uses (Anthropic `trigger: tool_uses`; null: off). */
  triggerToolUses: count('triggerToolUses').nullable().default(null),
  /** Most recent tool uses kept intact (Anthropic `keep: tool_uses`, default 3). */
  keep: count('keep').default(3),
  /** Change nothing unless at least this many tokens can be cleared (Anthropic `clear_at_least`). */
  clearAtLeast: count('clearAtLeast').default(0),
  /** Tool names never cleared (Anthropic `exclude_tools`, exact names). */
  excludeTools: z.array(z.string()).default([]),
  /** Also clear the tool_use input: false (default), true (all) or a list of tool names. */
  clearToolInputs: z.union([z.boolean(), z.array(z.string())]).default(false),
  /** Text that replaces a cleared result (the API's own text is not documented). */
  placeholder: z.string().min(1, 'placeholder must not be empty').default('[cleared]'),
})

const ALLOW_GROWTH = { allowGrowth: true } as const

export type ClearToolUsesParams = z.infer<typeof schema>

/**
 * This step's runs, played back on a view in the state one started from (step-records.ts). Its
 * only inputs are the view, the protections and the params: no window, round or summariser.
 */
const records = createStepRecords()
const NO_INPUTS = [] as const

export const clearToolUsesStrategy = defineStrategy<ClearToolUsesParams>({
  id: 'clear-tool-uses',
  label: 'Clear tool uses (Anthropic context editing)',
  source: 'Anthropic API context editing clear_tool_uses_20250919',
  description:
    'Fires when the prompt exceeds triggerInputTokens (default 100 000) or there are more than triggerToolUses ' +
    'tool uses (either configured trigger; set triggerInputTokens: null for a tool_uses-only trigger). Keeps the ' +
    'keep most recent tool uses (default 3) and clears every older one, oldest first: the result content becomes ' +
    'the placeholder, and with clearToolInputs (true, or a list of tool names) the tool_use input becomes {}. ' +
    'Tools in excludeTools are never cleared but still count toward keep (as LangChain’s clone does). With ' +
    'clearAtLeast, nothing changes unless the edits free at least that many tokens (engine token counts). The ' +
    'API’s placeholder text is not documented; the default `[cleared]` is LangChain’s clone’s. Calls still waiting ' +
    'for their result and other protected items are refused by the engine. Reason: tool_use_cleared.',
  schema,
  run(ctx, params) {
    const p = internParams('clear-tool-uses', params)
    records.run(ctx, p, NO_INPUTS, () => clearToolUses(ctx, p))
  },
})

function clearToolUses(ctx: StrategyContext, p: ClearToolUsesParams): void {
  const last = ctx.groups().at(-1)
  if (!last) return
  const input = ctx.totalTokens()
  // The token trigger is checked before listing tool uses: replay asks at every model call, and
  // below the trigger the list (a pass over every group) is not needed.
  const byTokens = p.triggerInputTokens !== null && input > p.triggerInputTokens
  if (!byTokens && p.triggerToolUses === null && p.triggerInputTokens !== null) {
    ctx.skip(
      last.index,
      'below_threshold',
      `Clear tool uses not triggered: ${input} input tokens vs trigger ${p.triggerInputTokens}`,
    )
    return
  }
  // Replay (no non-changes recorded) carries the older-use plan from call to call; a run that
  // explains itself plans from scratch, recording every skip.
  const carried = ctx.recordNonChanges ? null : carriedPlan(ctx, rulesOf(p), p.keep)
  // A run from scratch reads the conversation's uses as columns (clear-tool-uses/replan.ts);
  // the general planner stays for an address outside the conversation.
  const table = carried ? null : useTableOf(ctx)
  const list = table?.regular ? includedUses(ctx, table) : null
  const uses = carried || list ? null : toolUses(ctx)
  const useCount = carried ? carried.uses : list ? list.length : (uses as ToolUse[]).length
  const checks: string[] = []
  let fired = p.triggerInputTokens === null && p.triggerToolUses === null
  if (p.triggerInputTokens !== null) {
    fired ||= input > p.triggerInputTokens
    checks.push(`${input} input tokens vs trigger ${p.triggerInputTokens}`)
  }
  if (p.triggerToolUses !== null) {
    fired ||= useCount > p.triggerToolUses
    checks.push(`${useCount} tool uses vs trigger ${p.triggerToolUses}`)
  }
  if (!fired) {
    ctx.skip(last.index, 'below_threshold', `Clear tool uses not triggered: ${checks.join(', ')}`)
    return
  }
  const cut = Math.max(0, useCount - p.keep)
  if (table && list) {
    const rows = planRows(ctx, rulesOf(p), table, list.subarray(0, cut))
    if (rows.length > 0 && rows.saves < p.clearAtLeast) {
      ctx.skip(
        table.group[rows.use[0] as number] as number,
        'below_threshold',
        `Clear tool uses: only ${rows.saves} tokens could be cleared from ${cut} older tool uses, below clear_at_least ${p.clearAtLeast}; nothing cleared`,
      )
      return
    }
    applyRows(ctx, table, rows, p.keep, p.placeholder)
    keptRows(ctx, table, list.subarray(cut), p.keep)
    return
  }
  let edits = carried ? null : planAll(ctx, rulesOf(p), (uses as ToolUse[]).slice(0, cut))
  const clearable = carried ? carried.clearable : sumSaves(edits as Edit[])
  const editCount = carried ? carried.editCount : (edits as Edit[]).length
  if (editCount > 0 && clearable < p.clearAtLeast) {
    // (Only a run that plans from scratch records skips: the carried plan lists no edits here.)
    ctx.skip(
      edits?.[0]?.group ?? last.index,
      'below_threshold',
      `Clear tool uses: only ${clearable} tokens could be cleared from ${cut} older tool uses, below clear_at_least ${p.clearAtLeast}; nothing cleared`,
    )
    return
  }
  edits ??= (carried as OlderPlan).edits()
  // One sentence per (tool, what): thousands of edits share a handful of them.
  const sentences = { result: new Map<string, string>(), input: new Map<string, string>() }
  for (const e of edits) {
    const said = sentences[e.what]
    let detail = said.get(e.tool)
    if (detail === undefined) {
      const what =
        e.what === 'result'
          ? `replaced the ${e.tool} result with "${p.placeholder}"`
          : `cleared the ${e.tool} tool_use input to {}`
      detail = `Clear tool uses: older than the ${p.keep} most recent tool uses; ${what}`
      said.set(e.tool, detail)
    }
    // Every older use is cleared, however small: LangChain's clone writes its placeholder over
    // an empty result too (and so does the API, as far as its docs say), so the lab may not
    // keep a result the production context no longer has (differential check, issue 11).
    ctx.replace(e.ref, e.replacement, 'stub', 'tool_use_cleared', detail, ALLOW_GROWTH, e.price)
  }
  for (const u of ctx.recordNonChanges && uses ? uses.slice(cut) : []) {
    ctx.skip(
      u.group,
      'keep_recent',
      `Clear tool uses: ${u.info.name} is one of the ${p.keep} most recent tool uses, kept`,
      ctx.view.refAt(u.info.message, u.info.part),
    )
  }
}

function sumSaves(edits: readonly Edit[]): number {
  let t = 0
  for (const e of edits) t += e.saves
  return t
}
