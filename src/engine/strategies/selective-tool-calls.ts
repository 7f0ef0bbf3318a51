import { z } from 'zod'
import { defineStrategy } from '../compaction/strategy.ts'
import { label } from './truncation/metrics.ts'

const schema = z.object({
  /** Newest included tool_call groups to keep; 0 drops them all (MAF `keep_last_tool_call_groups`). */
  keepLastToolCallGroups: z
    .number()
    .int('keepLastToolCallGroups must be a whole number')
    .min(0, 'keepLastToolCallGroups must be greater than or equal to 0')
    .default(1),
})

export type SelectiveToolCallsParams = z.infer<typeof schema>

export const selectiveToolCallsStrategy = defineStrategy<SelectiveToolCallsParams>({
  id: 'selective-tool-calls',
  label: 'Selective tool-call compaction',
  source: 'Microsoft Agent Framework (Python) SelectiveToolCallCompactionStrategy',
  description:
    'Drops every included tool_call group (the call message, reasoning before it and all its results, wherever ' +
    'they are) except the newest keepLastToolCallGroups (MAF default 1; 0 drops them all). User and assistant ' +
    'text groups are untouched. Groups with a call still waiting for its result are refused by the pending-call ' +
    'protection. Reason: tool_call_compaction.',
  schema,
  run(ctx, p) {
    const toolGroups = ctx
      .groups()
      .filter((g) => g.kind === 'tool_call' && !ctx.view.isExcluded(g.index))
    const cut = toolGroups.length - p.keepLastToolCallGroups
    const kept = toolGroups.slice(Math.max(0, cut))
    if (cut <= 0) {
      const g = toolGroups[0] ?? ctx.groups().at(-1)
      if (g) {
        ctx.skip(
          g.index,
          'below_threshold',
          `Selective tool-call compaction: ${toolGroups.length} included tool_call groups, not more than keepLastToolCallGroups ${p.keepLastToolCallGroups}; nothing dropped`,
        )
      }
      return
    }
    for (const g of toolGroups.slice(0, cut)) {
      // Read before the exclusion changes it: the sentence is written later.
      const tokens = ctx.view.groupTokens(g.index)
      ctx.exclude(
        g.index,
        'tool_call_compaction',
        () =>
          `Selective tool-call compaction: older than the newest ${p.keepLastToolCallGroups} tool_call groups; dropped ${label(g)} with ${g.calls.length} calls and ${g.results.length} results (${tokens} tokens)`,
      )
    }
    const first = kept[0]
    if (first) {
      ctx.skip(
        first.index,
        'keep_recent',
        `Selective tool-call compaction: kept the newest ${kept.length} tool_call groups (${kept.map((g) => g.id).join(', ')})`,
      )
    }
  },
})
