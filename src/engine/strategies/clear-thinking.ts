import { z } from 'zod'
import type { StrategyContext } from '../compaction/context.ts'
import { defineStrategy } from '../compaction/strategy.ts'
import type { PartRef } from '../pairing.ts'
import { pushAll } from '../arrays.ts'

const schema = z.object({
  /**
   * Thinking turns kept, newest first (Anthropic `keep: {type: 'thinking_turns', value}`), or
   * 'all' (`keep: 'all'`). Default 1: only the latest assistant turn's thinking, as the API does
   * with thinking enabled and no explicit edit.
   */
  keep: z
    .union([
      z.literal('all'),
      z.number().int('keep must be a whole number').min(0, 'keep must be 0 or more'),
    ])
    .default(1),
})

export type ClearThinkingParams = z.infer<typeof schema>

/** An assistant turn with thinking: a run of consecutive assistant messages and its reasoning parts. */
interface ThinkingTurn {
  readonly group: number
  readonly first: number
  readonly refs: PartRef[]
}

function thinkingTurns(ctx: StrategyContext): ThinkingTurn[] {
  const { conversation, grouping } = ctx.view.prepared
  const turns: ThinkingTurn[] = []
  let open: ThinkingTurn | null = null
  for (let m = 0; m < ctx.view.limit; m++) {
    const g = grouping.groupOfMessage[m] as number
    if (ctx.view.isExcluded(g)) continue
    const msg = conversation.messages[m]
    if (msg?.role !== 'assistant') {
      open = null
      continue
    }
    const refs: PartRef[] = []
    msg.parts.forEach((_, i) => {
      if (ctx.view.part({ message: m, part: i })?.kind === 'reasoning')
        refs.push({ message: m, part: i })
    })
    if (!open) {
      open = { group: g, first: m, refs: [] }
      turns.push(open)
    }
    pushAll(open.refs, refs)
  }
  return turns.filter((t) => t.refs.length > 0)
}

export const clearThinkingStrategy = defineStrategy<ClearThinkingParams>({
  id: 'clear-thinking',
  label: 'Clear thinking (Anthropic context editing)',
  source: 'Anthropic API context editing clear_thinking_20251015',
  description:
    'Removes the thinking (and redacted thinking) blocks of older assistant turns, keeping the keep most recent ' +
    'turns that have thinking (default 1, the API’s behaviour with thinking enabled; "all" keeps every one). A turn ' +
    'is a run of consecutive assistant messages. The latest assistant message’s thinking must stay byte-identical: ' +
    'with keep ≥ 1 it is always among the kept turns, and with keep 0 the engine’s latest-thinking protection ' +
    'refuses the removal and records it. No trigger of its own (the API applies it on every request). Reason: ' +
    'thinking_cleared.',
  schema,
  run(ctx, p) {
    const turns = thinkingTurns(ctx)
    const keep = p.keep === 'all' ? turns.length : p.keep
    const cut = Math.max(0, turns.length - keep)
    turns.slice(0, cut).forEach((t, i) => {
      const id = ctx.conversation.messages[t.first]?.id ?? ''
      for (const ref of t.refs) {
        ctx.replace(
          ref,
          null,
          'trim',
          'thinking_cleared',
          () =>
            `Clear thinking: thinking turn ${i + 1} of ${turns.length} (message ${id}) is older than the ${keep} most recent thinking turns; thinking block removed`,
        )
      }
    })
    turns.slice(cut).forEach((t, i) => {
      const id = ctx.conversation.messages[t.first]?.id ?? ''
      ctx.skip(
        t.group,
        'keep_recent',
        () =>
          `Clear thinking: thinking turn ${cut + i + 1} of ${turns.length} (message ${id}) is within keep ${p.keep === 'all' ? '"all"' : keep}; ${t.refs.length} thinking blocks kept`,
        t.refs[0],
      )
    })
  },
})
