import { z } from 'zod'
import { defineStrategy } from '../compaction/strategy.ts'
import { label } from './truncation/metrics.ts'

const schema = z.object({
  /** How many of the newest included non-system groups to keep (MAF `keep_last_groups`, required). */
  keepLastGroups: z
    .number({ error: 'keepLastGroups is required (MAF keep_last_groups)' })
    .int('keepLastGroups must be a whole number')
    .positive('keepLastGroups must be greater than 0'),
  /** Keep every system group as an anchor (MAF `preserve_system=True`). */
  preserveSystem: z.boolean().default(true),
})

export type SlidingWindowParams = z.infer<typeof schema>

export const slidingWindowStrategy = defineStrategy<SlidingWindowParams>({
  id: 'sliding-window',
  label: 'Sliding window (last N groups)',
  source: 'Microsoft Agent Framework (Python) SlidingWindowStrategy',
  description:
    'No trigger of its own: always keeps only the last keepLastGroups included non-system groups and drops every ' +
    'other included group, whole. System groups stay as anchors while preserveSystem is on (default); with it off ' +
    'they are dropped too unless the system protection refuses. Summaries inserted by earlier steps are neither ' +
    'counted nor dropped (this engine cannot retract an inserted summary). keepLastGroups is required and > 0. ' +
    'Reason: sliding_window.',
  schema,
  run(ctx, p) {
    const included = ctx
      .groups()
      .filter((g) => !ctx.view.isExcluded(g.index) && g.kind !== 'summary')
    const window = included.filter((g) => g.kind !== 'system').slice(-p.keepLastGroups)
    const kept = new Set(window.map((g) => g.index))
    const first = window[0]
    const last = window.at(-1)
    let acted = false
    for (const g of included) {
      if (kept.has(g.index)) continue
      if (g.kind === 'system' && p.preserveSystem) continue
      acted = true
      // Read before the exclusion changes it: the sentence is written later.
      const tokens = ctx.view.groupTokens(g.index)
      ctx.exclude(
        g.index,
        'sliding_window',
        () =>
          `Sliding window: outside the last ${p.keepLastGroups} non-system groups (${first?.id ?? '–'} … ${last?.id ?? '–'}); dropped ${label(g)} (${tokens} tokens)`,
      )
    }
    if (!first) return
    ctx.skip(
      first.index,
      acted ? 'keep_recent' : 'below_threshold',
      acted
        ? `Sliding window: kept the last ${window.length} non-system groups, ${first.id} … ${last?.id ?? first.id}`
        : `Sliding window: only ${window.length} included non-system groups, not more than keepLastGroups ${p.keepLastGroups}; nothing dropped`,
    )
  },
})
