/**
 * @falai/agent's `CompactionEngine` has one chain (engines.md §4): tool_result_budget →
 * micro_compact → auto_compact, each run only while the estimate is at or over
 * `maxTokens × compactionThreshold`, sharing one `preserveRecentCount`. These helpers read our
 * steps as that chain and report where they do not fit it.
 */
import { FALAI_SUMMARY_PREFIX, FALAI_SUMMARY_PROMPT } from '../../../engine/strategies/summarize.ts'
import { fmt, paramWarning, warning, type ActiveStep } from '../index-helpers.ts'
import type { LossyWarning } from '../types.ts'

export const LABEL = '@falai/agent'
export const TIERS = ['tool-result-budget', 'micro-compact', 'summarize'] as const
export type Tier = (typeof TIERS)[number]

/** falai's names for the tiers, for messages. */
export const TIER_NAMES: Readonly<Record<Tier, string>> = {
  'tool-result-budget': 'tool_result_budget',
  'micro-compact': 'micro_compact',
  summarize: 'auto_compact',
}

/** `maxTokens` and `compactionThreshold` whose product is `threshold`, within falai's 0.5–0.95. */
export function budget(threshold: number, maxTokens: number): { maxTokens: number; ratio: number } {
  const ratio = Math.round((threshold / maxTokens) * 10_000) / 10_000
  if (ratio >= 0.5 && ratio <= 0.95 && Math.round(maxTokens * ratio) === threshold)
    return { maxTokens, ratio }
  return { maxTokens: Math.round(threshold / 0.8), ratio: 0.8 }
}

/** The preserved tail in messages, or a warning when the step counts groups. */
export function tailOf(s: ActiveStep): { count: number; warnings: LossyWarning[] } {
  if (s.step.strategy !== 'summarize')
    return { count: s.params.preserveRecentCount as number, warnings: [] }
  const groups = s.params.preserveRecentGroups
  if (typeof groups !== 'number') {
    const messages = s.params.preserveRecentMessages as number
    if (messages >= 2) return { count: messages, warnings: [] }
    return {
      count: 2,
      warnings: [
        paramWarning(
          s,
          'preserveRecentMessages',
          LABEL,
          `requires preserveRecentCount of at least 2 (this step keeps ${messages})`,
          'preserveRecentCount 2: falai keeps the last 2 messages',
        ),
      ],
    }
  }
  const count = Math.max(2, groups)
  return {
    count,
    warnings: [
      paramWarning(
        s,
        'preserveRecentGroups',
        LABEL,
        `counts the preserved tail in messages (preserveRecentCount), not groups (${groups})`,
        `preserveRecentCount ${count}: falai keeps the last ${count} messages, which may split a tool call from its results`,
      ),
    ],
  }
}

/** auto_compact's fixed behaviour, by our parameter name and value. */
const SUMMARY_FIXED: readonly (readonly [string, unknown, string])[] = [
  ['prompt', FALAI_SUMMARY_PROMPT, 'uses its built-in summary prompt'],
  ['summaryPrefix', FALAI_SUMMARY_PREFIX, 'starts the summary with "[Conversation Summary]"'],
  ['role', 'system', 'inserts the summary as a system message'],
  ['placement', 'first', 'puts the summary first'],
  ['maxOutputTokens', 1024, 'asks for at most 1,024 output tokens'],
  ['maxSummaryInputTokens', null, 'sends the whole summarised history to the provider'],
  ['onFailure', 'truncate', 'falls back to dropping the oldest messages when summarising fails'],
]

export function summaryWarnings(s: ActiveStep): LossyWarning[] {
  return SUMMARY_FIXED.flatMap(([name, value, does]) =>
    JSON.stringify(s.params[name]) === JSON.stringify(value)
      ? []
      : [
          paramWarning(
            s,
            name,
            LABEL,
            `has no option for this (${name} ${JSON.stringify(s.params[name])}); auto_compact ${does}`,
            'falai’s built-in behaviour applies',
          ),
        ],
  )
}

/** Tiers our config lacks but falai runs anyway once over its threshold. */
export function missingTierWarnings(has: ReadonlySet<Tier>, threshold: number): LossyWarning[] {
  const out: LossyWarning[] = []
  if (!has.has('micro-compact'))
    out.push(
      warning(
        'pipeline',
        `${LABEL} always runs micro_compact (collapse whitespace in older tool results) when still at or over ${fmt(threshold)} tokens; the config has no micro-compact step.`,
        'older tool results lose their formatting whitespace',
      ),
    )
  if (!has.has('summarize'))
    out.push(
      warning(
        'pipeline',
        `${LABEL} always runs auto_compact (summarise all but the recent messages) when still at or over ${fmt(threshold)} tokens; the config has no summarize step.`,
        'without a provider the summary fails and falai drops the oldest messages until under the threshold',
      ),
    )
  return out
}

/** Where a tier sits out of falai's fixed order. */
export function orderWarnings(chosen: readonly ActiveStep[]): LossyWarning[] {
  const out: LossyWarning[] = []
  chosen.forEach((s, i) => {
    const prev = chosen[i - 1]
    if (prev && TIERS.indexOf(s.step.strategy as Tier) < TIERS.indexOf(prev.step.strategy as Tier))
      out.push(
        warning(
          `${s.path}.strategy`,
          `${LABEL} runs its tiers in a fixed order (tool_result_budget → micro_compact → auto_compact); this ${s.step.strategy} step comes after ${prev.step.strategy}.`,
          'falai runs it in its own order',
        ),
      )
  })
  return out
}
