/**
 * The tool uses of a prepared conversation as columns, and what clearing each result gives.
 *
 * A re-plan plans every older use, and its cost was not the arithmetic but reaching into objects
 * spread over the heap: each use's record, its call record, the tool name, each result's record,
 * the result part, its memoised clearing and the price memo of the replacement — about ten
 * cache misses per use, thousands of uses per round. All of that depends only on the prepared
 * conversation (and, for the clearing, on the placeholder text), so it is laid out once in typed
 * arrays that a round then reads in order.
 */
import type { StrategyContext } from '../../compaction/context.ts'
import { flatPart, type Prepared } from '../../compaction/prepared.ts'
import type { Message, ToolResultPart } from '../../model.ts'
import { allToolUses, clearedResult, isCleared } from './plan.ts'

/** Every tool use in `allToolUses` order, with its results as rows. */
export interface UseTable {
  readonly count: number
  readonly group: Int32Array
  readonly callMessage: Int32Array
  readonly callPart: Int32Array
  /** Index into {@link UseTable.tools} of each use's tool name. */
  readonly tool: Int32Array
  /** Distinct tool names. */
  readonly tools: readonly string[]
  /** Use `i`'s result rows are `rowStart[i]` up to `rowStart[i + 1]`. */
  readonly rowStart: Int32Array
  /** Row → index into `pairing.results`, or -1 when the pairing has no such result. */
  readonly result: Int32Array
  readonly resultMessage: Int32Array
  readonly resultPart: Int32Array
  /**
   * Every call and result address names a part of the conversation. When one does not (never in
   * an imported transcript), planning takes the general path, which handles such addresses.
   */
  readonly regular: boolean
}

const useTables = new WeakMap<Prepared, UseTable>()

export function useTableOf(ctx: StrategyContext): UseTable {
  const prepared = ctx.view.prepared
  const hit = useTables.get(prepared)
  if (hit) return hit
  const all = allToolUses(ctx)
  const { results } = ctx.pairing
  const index = ctx.view.parts
  const n = all.length
  let rows = 0
  for (const u of all) rows += u.info.results.length
  const group = new Int32Array(n)
  const callMessage = new Int32Array(n)
  const callPart = new Int32Array(n)
  const tool = new Int32Array(n)
  const rowStart = new Int32Array(n + 1)
  const result = new Int32Array(rows)
  const resultMessage = new Int32Array(rows)
  const resultPart = new Int32Array(rows)
  const tools: string[] = []
  const toolIndex = new Map<string, number>()
  let regular = true
  let row = 0
  for (let i = 0; i < n; i++) {
    const u = all[i] as (typeof all)[number]
    group[i] = u.group
    callMessage[i] = u.info.message
    callPart[i] = u.info.part
    if (flatPart(index, u.info.message, u.info.part) < 0) regular = false
    let t = toolIndex.get(u.info.name)
    if (t === undefined) {
      t = tools.length
      tools.push(u.info.name)
      toolIndex.set(u.info.name, t)
    }
    tool[i] = t
    rowStart[i] = row
    for (const r of u.info.results) {
      const info = results[r]
      result[row] = info ? r : -1
      resultMessage[row] = info?.message ?? 0
      resultPart[row] = info?.part ?? 0
      if (info && flatPart(index, info.message, info.part) < 0) regular = false
      row++
    }
  }
  rowStart[n] = row
  const made: UseTable = {
    count: n,
    group,
    callMessage,
    callPart,
    tool,
    tools,
    rowStart,
    result,
    resultMessage,
    resultPart,
    regular,
  }
  useTables.set(prepared, made)
  return made
}

/** What clearing an original (unreplaced) result gives, per result index. */
export const NOT_KNOWN = 0
/** Not a tool result: nothing to clear. */
export const NOT_A_RESULT = 1
/** Already the placeholder. */
export const CLEARED = 2
/** Replaced by `replacement[r]`, which costs `tokens[r]` where the result sits. */
export const REPLACE = 3

export interface ClearTable {
  readonly kind: Uint8Array
  readonly replacement: (ToolResultPart | undefined)[]
  /** The replacement's price as the result's message would send it. */
  readonly tokens: Float64Array
}

const clearTables = new WeakMap<Prepared, Map<string, ClearTable>>()

/** The clearing table of a prepared conversation for one placeholder (filled as rows are read). */
export function clearTableOf(ctx: StrategyContext, placeholder: string): ClearTable {
  const prepared = ctx.view.prepared
  let byPlaceholder = clearTables.get(prepared)
  if (!byPlaceholder) {
    byPlaceholder = new Map()
    clearTables.set(prepared, byPlaceholder)
  }
  let table = byPlaceholder.get(placeholder)
  if (!table) {
    const n = ctx.pairing.results.length
    table = {
      kind: new Uint8Array(n),
      replacement: new Array<ToolResultPart | undefined>(n),
      tokens: new Float64Array(n),
    }
    byPlaceholder.set(placeholder, table)
  }
  return table
}

/**
 * Fill row `r` of `table` from the original part at (`message`, `part`): the same answer as
 * `clearing(view.part(…))` in plan.ts for a part no override changed, and the replacement's
 * price as `view.price` gives it (a pure function of the part, the message's role and model and
 * the prepared conversation).
 */
export function fillClearing(
  ctx: StrategyContext,
  table: ClearTable,
  r: number,
  message: number,
  part: number,
  placeholder: string,
): number {
  const msg = ctx.conversation.messages[message] as Message
  const original = msg.parts[part]
  if (!original || original.kind !== 'tool_result') table.kind[r] = NOT_A_RESULT
  else if (isCleared(original, placeholder)) table.kind[r] = CLEARED
  else {
    const replacement = clearedResult(original, placeholder)
    table.replacement[r] = replacement
    table.tokens[r] = ctx.view.price(replacement, msg.role, msg.model)
    table.kind[r] = REPLACE
  }
  return table.kind[r] as number
}
