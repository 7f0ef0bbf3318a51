/** LIP's own size estimate, which its token threshold compares (faithful mode). */
import type { StrategyContext } from '../../compaction/context.ts'
import { codePointLength, flattenText } from './stub.ts'

/**
 * LIP's trigger estimate: Σ `len(str(message.content or ""))` // 4 over the messages it sends —
 * text and tool-result text only (assistant tool-call arguments and reasoning are not content).
 * List content is approximated by the sum of its text items (Python's `str(list)` adds quoting).
 */
export function lipEstimate(ctx: StrategyContext): number {
  let chars = 0
  for (const g of ctx.groups()) {
    if (ctx.view.isExcluded(g.index)) continue
    if (g.kind === 'system' && g.messages.length === 0)
      for (const p of ctx.conversation.system) chars += codePointLength(p.text)
    for (const m of ctx.view.messagesOf(g.index))
      for (const p of ctx.view.currentParts(m)) {
        if (p.kind === 'text') chars += codePointLength(p.text)
        else if (p.kind === 'tool_result') chars += codePointLength(flattenText(p.content))
      }
  }
  return Math.floor(chars / 4)
}
