import type { StrategyContext } from '../../compaction/context.ts'
import type { Group } from '../../groups.ts'

/**
 * Agent Framework (Python) measures: "included tokens" and "included messages" of the message
 * list. Tool definitions and request framing are not messages in MAF, so they are left out; the
 * top-level system prompt is one system message; summaries inserted by earlier steps are
 * included messages. Tokens are the engine's exact counts (MAF's tokenizer is pluggable).
 */
export type MafMetric = 'tokens' | 'messages'

export function includedMessageTokens(ctx: StrategyContext): number {
  return ctx.totalTokens() - ctx.view.prepared.staticTokens
}

export function groupMessageCount(ctx: StrategyContext, g: Group): number {
  return g.messages.length === 0 ? 1 : ctx.view.messagesOf(g.index).length
}

export function includedMessageCount(ctx: StrategyContext): number {
  let n = ctx.view.summaries().length
  for (const g of ctx.groups()) if (!ctx.view.isExcluded(g.index)) n += groupMessageCount(ctx, g)
  return n
}

export function measure(ctx: StrategyContext, metric: MafMetric): number {
  return metric === 'tokens' ? includedMessageTokens(ctx) : includedMessageCount(ctx)
}

export function groupSize(ctx: StrategyContext, g: Group, metric: MafMetric): number {
  return metric === 'tokens' ? ctx.view.groupTokens(g.index) : groupMessageCount(ctx, g)
}

export const unitOf = (metric: MafMetric): string => (metric === 'tokens' ? 'tokens' : 'messages')

/** Group label for decision sentences: `tool_call group g12 (read, grep)`. */
export function label(g: Group): string {
  const tools = g.tools.length > 0 ? ` (${g.tools.join(', ')})` : ''
  return `${g.kind} group ${g.id}${tools}`
}
