import type { StrategyContext } from '../../compaction/context.ts'
import type { Message, Part, ToolCallPart, ToolResultPart } from '../../model.ts'
import type { CallInfo, PartRef, ResultInfo } from '../../pairing.ts'
import type { Prepared } from '../../compaction/prepared.ts'
import { withFields } from '../../objects.ts'

/** One tool use as Anthropic counts it: a tool_use block with its result(s), in an included group. */
export interface ToolUse {
  readonly call: number
  readonly info: CallInfo
  readonly group: number
}

/** Included, visible tool uses in chronological order (by call position). */
export function toolUses(ctx: StrategyContext): ToolUse[] {
  // Filtering the conversation's sorted list keeps the order a stable sort of the filtered list
  // would give: only which uses are in changes between rounds and re-plans, never their order.
  const visibleGroups = ctx.view.visibleGroupCount
  const uses: ToolUse[] = []
  for (const u of allToolUses(ctx)) {
    if (u.group < visibleGroups && !ctx.view.isExcluded(u.group) && ctx.visible(u.info.message))
      uses.push(u)
  }
  return uses
}

/** Every tool use of the conversation (groups in order, sorted by call position), per grouping. */
const everyUse = new WeakMap<object, readonly ToolUse[]>()

export function allToolUses(ctx: StrategyContext): readonly ToolUse[] {
  const { grouping } = ctx.view.prepared
  const hit = everyUse.get(grouping)
  if (hit) return hit
  const uses: ToolUse[] = []
  for (const g of grouping.groups) {
    for (const c of g.calls) {
      const info = grouping.pairing.calls[c]
      if (info) uses.push({ call: c, info, group: g.index })
    }
  }
  uses.sort((a, b) => a.info.message - b.info.message || a.info.part - b.info.part)
  everyUse.set(grouping, uses)
  return uses
}

// Replacements are pure functions of an immutable part: one object per part (and placeholder), so
// a re-plan or the next replay call finds its price in the view's price memo instead of counting.
const clearedResults = new WeakMap<ToolResultPart, Map<string, ToolResultPart>>()
const clearedInputs = new WeakMap<ToolCallPart, ToolCallPart>()

export function clearedResult(part: ToolResultPart, placeholder: string): ToolResultPart {
  let byPlaceholder = clearedResults.get(part)
  const hit = byPlaceholder?.get(placeholder)
  if (hit) return hit
  const made: ToolResultPart = withFields(part, {
    content: [{ kind: 'text' as const, text: placeholder }],
  })
  if (!byPlaceholder) {
    byPlaceholder = new Map()
    clearedResults.set(part, byPlaceholder)
  }
  byPlaceholder.set(placeholder, made)
  return made
}

/** What clearing a result finds: not a tool result (null), already the placeholder, or its replacement. */
export type Clearing = ClearedTo | 'cleared' | null

/** A result's replacement, and its price once asked (see {@link replacementPrice}). */
export interface ClearedTo {
  readonly replacement: ToolResultPart
  price?: number
}

export function clearing(part: Part | null, placeholder: string): Clearing {
  if (!part || part.kind !== 'tool_result') return null
  return isCleared(part, placeholder)
    ? 'cleared'
    : { replacement: clearedResult(part, placeholder) }
}

// Per prepared conversation and placeholder, the answer for each result the view has not replaced:
// a re-plan reads it by result index instead of reaching into every part object again.
const clearings = new WeakMap<Prepared, Map<string, (Clearing | undefined)[]>>()

/** `clearing(view.part(info))` for result `r` (at `info`), from the table when it is unreplaced. */
export function clearingOf(
  ctx: StrategyContext,
  info: ResultInfo,
  r: number,
  placeholder: string,
): Clearing {
  const { view } = ctx
  if (view.overrideAt(info.message, info.part) !== undefined)
    return clearing(view.part(info), placeholder)
  let byPlaceholder = clearings.get(view.prepared)
  if (!byPlaceholder) {
    byPlaceholder = new Map()
    clearings.set(view.prepared, byPlaceholder)
  }
  let table = byPlaceholder.get(placeholder)
  if (!table) {
    table = new Array<Clearing | undefined>(ctx.pairing.results.length)
    byPlaceholder.set(placeholder, table)
  }
  const hit = table[r]
  if (hit !== undefined) return hit
  const made = clearing(view.part(info), placeholder)
  table[r] = made
  return made
}

export function isCleared(part: ToolResultPart, placeholder: string): boolean {
  const only = part.content[0]
  return part.content.length === 1 && only?.kind === 'text' && only.text === placeholder
}

/** The tool_use block with its input cleared: `input: {}` (argsRaw `{}`). */
export function clearedInput(part: ToolCallPart): ToolCallPart {
  const hit = clearedInputs.get(part)
  if (hit) return hit
  const { argsError: _argsError, ...rest } = part
  const made: ToolCallPart = withFields(rest, { args: {}, argsRaw: '{}' })
  clearedInputs.set(part, made)
  return made
}

export interface Edit {
  readonly ref: PartRef
  readonly group: number
  readonly replacement: Part
  readonly what: 'result' | 'input'
  readonly tool: string
  /** Tokens the edit would free (0 when protected or not smaller). */
  readonly saves: number
  /** The replacement's price when the plan has it (-1: not asked), for `ctx.replace`. */
  readonly price: number
}

/**
 * The price of a clearing's replacement in the message of the result at `ref`, remembered on the
 * clearing: the table keeps one clearing per result (per prepared conversation and placeholder),
 * so the plan and the replacement of every later call read it there rather than in the price
 * memo, a table over every part priced that a long session no longer keeps in the caches.
 */
export function replacementPrice(ctx: StrategyContext, ref: PartRef, c: ClearedTo): number {
  if (c.price === undefined) {
    const message = ctx.conversation.messages[ref.message] as Message
    c.price = ctx.view.price(c.replacement, message.role, message.model)
  }
  return c.price
}

/**
 * Tokens the edit would free when no protection refuses it. `known`: the replacement's price when
 * the caller has it (see {@link replacementPrice}; -1: price it here).
 */
export function savedBy(ctx: StrategyContext, ref: PartRef, replacement: Part, known = -1): number {
  let after = known
  if (after < 0) {
    const message = ctx.conversation.messages[ref.message] as Message
    after = ctx.view.price(replacement, message.role, message.model)
  }
  return Math.max(0, ctx.view.partTokens(ref) - after)
}
