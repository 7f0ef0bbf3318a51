/**
 * The whole-list plan of a run that explains itself (a re-plan, every round of `compact`), read
 * from the columns of table.ts: the same edits, skips and sums, in the same order, as
 * `planAll(ctx, rules, toolUses(ctx).slice(0, cut))` (plan-use.ts, property-tested against it),
 * without a record per use or per edit.
 */
import type { StrategyContext } from '../../compaction/context.ts'
import type { Message, Part } from '../../model.ts'
import type { PartRef } from '../../pairing.ts'
import { clearedInput, clearing } from './plan.ts'
import type { PlanRules } from './plan-use.ts'
import { CLEARED, clearTableOf, fillClearing, NOT_KNOWN, REPLACE, type UseTable } from './table.ts'

/** Included, visible uses (indexes into the table), in order: what `toolUses(ctx)` lists. */
export function includedUses(ctx: StrategyContext, t: UseTable): Int32Array {
  const { view } = ctx
  const visibleGroups = view.visibleGroupCount
  const limit = view.limit
  const out = new Int32Array(t.count)
  let n = 0
  for (let i = 0; i < t.count; i++) {
    const g = t.group[i] as number
    if (g < visibleGroups && !view.isExcluded(g) && (t.callMessage[i] as number) < limit)
      out[n++] = i
  }
  return out.subarray(0, n)
}

/** Edit `what`: the result becomes the placeholder. */
export const RESULT = 0
/** Edit `what`: the tool_use input becomes `{}`. */
export const INPUT = 1

/** The planned edits as rows, in order, with what they free in total. */
export interface EditRows {
  readonly length: number
  readonly ref: readonly PartRef[]
  readonly replacement: readonly Part[]
  /** The replacement's price where it sits (what `StrategyContext.replace` takes as `known`). */
  readonly tokens: Float64Array
  /** The use each edit clears (index into the table). */
  readonly use: Int32Array
  readonly what: Uint8Array
  /** Sum of what the edits free (0 for an edit a protection refuses). */
  readonly saves: number
}

/**
 * Plan the older uses `older` (indexes into `t`): skips are recorded as the general planner
 * records them, edits returned as rows.
 */
export function planRows(
  ctx: StrategyContext,
  rules: PlanRules,
  t: UseTable,
  older: Int32Array,
): EditRows {
  const { view } = ctx
  const messages = ctx.conversation.messages
  const table = clearTableOf(ctx, rules.placeholder)
  const excluded = new Uint8Array(t.tools.length)
  const inputs = new Uint8Array(t.tools.length)
  for (let k = 0; k < t.tools.length; k++) {
    const name = t.tools[k] as string
    excluded[k] = rules.excluded.has(name) ? 1 : 0
    inputs[k] = rules.inputsOf(name) ? 1 : 0
  }
  let capacity = older.length
  for (const i of older) capacity += (t.rowStart[i + 1] as number) - (t.rowStart[i] as number)
  const rows: Rows = {
    length: 0,
    ref: new Array<PartRef>(capacity),
    replacement: new Array<Part>(capacity),
    tokens: new Float64Array(capacity),
    use: new Int32Array(capacity),
    what: new Uint8Array(capacity),
    saves: 0,
  }
  const limit = view.limit
  for (const i of older) {
    const tool = t.tool[i] as number
    const g = t.group[i] as number
    const cm = t.callMessage[i] as number
    const cp = t.callPart[i] as number
    if (excluded[tool]) {
      ctx.skip(
        g,
        'denied_by_policy',
        `Clear tool uses: ${t.tools[tool]} is in exclude_tools, never cleared`,
        view.refAt(cm, cp),
      )
      continue
    }
    for (let row = t.rowStart[i] as number; row < (t.rowStart[i + 1] as number); row++) {
      const r = t.result[row] as number
      const m = t.resultMessage[row] as number
      if (r < 0 || m >= limit) continue
      const p = t.resultPart[row] as number
      const o = view.overrideAt(m, p)
      let kind: number
      let part: Part | undefined
      let after = 0
      let before: number
      if (o === undefined) {
        kind = table.kind[r] as number
        if (kind === NOT_KNOWN) kind = fillClearing(ctx, table, r, m, p, rules.placeholder)
        part = table.replacement[r]
        after = table.tokens[r] as number
        before = view.prepared.partTokens[m]?.[p] ?? 0
      } else {
        // Replaced by an earlier step: what it is now decides (the general planner's path).
        const c = clearing(o.part, rules.placeholder)
        kind = c === null ? 0 : c === 'cleared' ? CLEARED : REPLACE
        if (c !== null && c !== 'cleared') {
          part = c.replacement
          const msg = messages[m] as Message
          after = view.price(part, msg.role, msg.model)
        }
        before = o.tokens
      }
      if (kind === CLEARED) {
        if (ctx.recordNonChanges)
          ctx.skip(
            g,
            'already_compacted',
            `Clear tool uses: the ${t.tools[tool]} result is already cleared`,
            view.refAt(m, p),
          )
        continue
      }
      if (kind !== REPLACE || !part) continue
      addRow(rows, ctx, t, i, view.refAt(m, p), part, after, before, RESULT)
    }
    if (inputs[tool]) {
      const call = view.partAt(cm, cp)
      if (call?.kind === 'tool_call' && call.argsRaw !== '{}') {
        const at = view.refAt(cm, cp)
        const cleared = clearedInput(call)
        const msg = messages[cm] as Message
        const after = view.price(cleared, msg.role, msg.model)
        addRow(rows, ctx, t, i, at, cleared, after, view.partTokens(at), INPUT)
      }
    }
  }
  return rows
}

/** {@link EditRows} being filled. */
interface Rows {
  length: number
  readonly ref: PartRef[]
  readonly replacement: Part[]
  readonly tokens: Float64Array
  readonly use: Int32Array
  readonly what: Uint8Array
  saves: number
}

/**
 * One edit: priced, checked against the use's group protection as the planner does. A function
 * of the module, not a closure made per plan: optimised code that inlined one re-plan's closure
 * was thrown away at the next re-plan's ("wrong call target"), recompiling all of planRows.
 */
function addRow(
  rows: Rows,
  ctx: StrategyContext,
  t: UseTable,
  i: number,
  at: PartRef,
  part: Part,
  after: number,
  before: number,
  w: number,
): void {
  if (!ctx.protectionOf(t.group[i] as number, at)) rows.saves += Math.max(0, before - after)
  const n = rows.length
  rows.ref[n] = at
  rows.replacement[n] = part
  rows.tokens[n] = after
  rows.use[n] = i
  rows.what[n] = w
  rows.length = n + 1
}

const ALLOW_GROWTH = { allowGrowth: true } as const

/**
 * Apply the planned rows (each priced already), one sentence per (tool, what) shared by every
 * edit that says it: the decisions `ctx.replace` records for each edit in turn.
 */
export function applyRows(
  ctx: StrategyContext,
  t: UseTable,
  rows: EditRows,
  keep: number,
  placeholder: string,
): void {
  const said: (string | undefined)[][] = [[], []]
  for (let k = 0; k < rows.length; k++) {
    const w = rows.what[k] as number
    const tool = t.tool[rows.use[k] as number] as number
    const sentences = said[w] as (string | undefined)[]
    let detail = sentences[tool]
    if (detail === undefined) {
      const name = t.tools[tool] as string
      const what =
        w === RESULT
          ? `replaced the ${name} result with "${placeholder}"`
          : `cleared the ${name} tool_use input to {}`
      detail = `Clear tool uses: older than the ${keep} most recent tool uses; ${what}`
      sentences[tool] = detail
    }
    // Every older use is cleared, however small: LangChain's clone writes its placeholder over
    // an empty result too (and so does the API, as far as its docs say), so the lab may not
    // keep a result the production context no longer has (differential check, issue 11).
    ctx.replace(
      rows.ref[k] as PartRef,
      rows.replacement[k] as Part,
      'stub',
      'tool_use_cleared',
      detail,
      ALLOW_GROWTH,
      rows.tokens[k] as number,
    )
  }
}

/** Record the `keep` most recent uses (`recent`, indexes into `t`) as kept. */
export function keptRows(ctx: StrategyContext, t: UseTable, recent: Int32Array, keep: number) {
  for (const i of recent)
    ctx.skip(
      t.group[i] as number,
      'keep_recent',
      `Clear tool uses: ${t.tools[t.tool[i] as number]} is one of the ${keep} most recent tool uses, kept`,
      ctx.view.refAt(t.callMessage[i] as number, t.callPart[i] as number),
    )
}
