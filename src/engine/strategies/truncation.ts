import { z } from 'zod'
import type { StrategyContext } from '../compaction/context.ts'
import { defineStrategy } from '../compaction/strategy.ts'
import { internParams } from './intern-params.ts'
import { createStepRecords } from './step-records.ts'
import { keepMinimumRetained, minimumRetainedGroup } from './minimum-retained.ts'
import { groupSize, label, measure, unitOf } from './truncation/metrics.ts'

const schema = z
  .object({
    /** Trigger: act only when the metric is over this (MAF `max_n`, required). */
    maxN: z
      .number({ error: 'maxN is required (MAF max_n): the metric value that triggers truncation' })
      .int('maxN must be a whole number')
      .positive('maxN must be greater than 0'),
    /** Target: drop oldest groups until the metric is at most this (MAF `compact_to`, required). */
    compactTo: z
      .number({ error: 'compactTo is required (MAF compact_to): the value to truncate down to' })
      .int('compactTo must be a whole number')
      .positive('compactTo must be greater than 0'),
    /** MAF measures tokens when given a tokenizer, else included messages (its default). */
    metric: z.enum(['tokens', 'messages']).default('messages'),
    /** System groups are never dropped (MAF `preserve_system=True`). */
    preserveSystem: z.boolean().default(true),
  })
  .refine((p) => p.compactTo <= p.maxN, {
    message: 'compactTo must be less than or equal to maxN',
    path: ['compactTo'],
  })

export type TruncationParams = z.infer<typeof schema>

/**
 * This step's runs, played back on a view in the state one started from (step-records.ts): it
 * reads the view, the protections and its params only (no window, round or summariser).
 */
const NO_INPUTS = [] as const
const records = createStepRecords()

export const truncationStrategy = defineStrategy<TruncationParams>({
  id: 'truncation',
  label: 'Truncation (oldest groups first)',
  source: 'Microsoft Agent Framework (Python) TruncationStrategy',
  description:
    'When the included metric is over maxN, drops whole groups oldest-first until it is at most compactTo. ' +
    'The metric is included messages (MAF default, no tokenizer) or included tokens (metric: tokens, measured ' +
    'with the engine’s counts; tool definitions are not messages and are not counted). System groups are skipped ' +
    'when preserveSystem is on (default), and the minimum retained group — the newest included non-system group — ' +
    'is never dropped, so the result may stay over the target. Summaries inserted by earlier steps are counted ' +
    'but never dropped. maxN and compactTo are required; compactTo ≤ maxN. Reason: truncation.',
  schema,
  run(ctx, params) {
    const p = internParams('truncation', params)
    records.run(ctx, p, NO_INPUTS, () => truncate(ctx, p))
  },
})

function truncate(ctx: StrategyContext, p: TruncationParams): void {
  const unit = unitOf(p.metric)
  const how = p.metric === 'tokens' ? ' (engine token counts)' : ''
  const keep = minimumRetainedGroup(ctx)
  const start = measure(ctx, p.metric)
  if (start <= p.maxN) {
    const last = ctx.groups().at(-1)
    if (last) {
      ctx.skip(
        last.index,
        'below_threshold',
        `Truncation not triggered: ${start} included ${unit}${how} is not over max_n ${p.maxN}`,
      )
    }
    return
  }
  let current = start
  for (const g of ctx.groups()) {
    if (current <= p.compactTo) break
    if (ctx.view.isExcluded(g.index) || g.kind === 'summary') continue
    if (g.kind === 'system' && p.preserveSystem) continue
    if (g.index === keep) continue
    const size = groupSize(ctx, g, p.metric)
    // `current` changes as the loop drops groups: the sentence quotes its value now.
    const now = current
    const detail = () =>
      `Truncation: ${now} included ${unit}${how} > compact_to ${p.compactTo} (triggered at ${start} > max_n ${p.maxN}); dropped the oldest ${label(g)} (${size} ${unit})`
    if (ctx.exclude(g.index, 'truncation', detail)) current -= size
  }
  if (current > p.compactTo) {
    keepMinimumRetained(
      ctx,
      keep,
      `Truncation stopped at ${current} ${unit}, still over compact_to ${p.compactTo}`,
    )
  }
}
