/**
 * @falai/agent (`falai-dev/agent`): the `compaction` option of an `Agent` as a TypeScript
 * snippet (engines.md §4). falai's options are few — maxTokens, compactionThreshold,
 * preserveRecentCount, maxToolResultChars, provider — and drive a fixed three-tier chain, so the
 * export reads our tool-result-budget, micro-compact and summarize steps as that chain.
 */
import type { CompactionConfig } from '../../config/schema.ts'
import {
  LABEL,
  TIERS,
  TIER_NAMES,
  budget,
  missingTierWarnings,
  orderWarnings,
  summaryWarnings,
  tailOf,
  type Tier,
} from './falai/tiers.ts'
import {
  activeSteps,
  duplicateStep,
  exporterName,
  fallbackWarnings,
  fmt,
  gatedThreshold,
  oneLine,
  paramWarning,
  protectionWarnings,
  targetTokens,
  targetWarnings,
  unsupportedStep,
  usableTokens,
  warning,
  type ActiveStep,
} from './index-helpers.ts'
import type { ExportTarget, LossyWarning, TargetOutput } from './types.ts'
import { pushAll } from '../../engine/arrays.ts'

/** A TS numeric literal: integers with `_` thousands separators. */
function tsNumber(n: number): string {
  return Number.isInteger(n) ? String(n).replace(/\B(?=(\d{3})+(?!\d))/g, '_') : String(n)
}

interface Options {
  readonly maxTokens: number
  readonly compactionThreshold: number
  readonly preserveRecentCount: number
  readonly maxToolResultChars: number | null
}

function snippet(config: CompactionConfig, o: Options | null, summary: string): string {
  const head = [
    `// ${summary}`,
    `// @falai/agent — the \`compaction\` option of \`new Agent({ ... })\`, exported by ${exporterName()}`,
    `// from config ${JSON.stringify(oneLine(config.name))}.`,
  ]
  if (!o)
    return [
      ...head,
      '// Nothing in this config maps to falai compaction: leave the option out.',
      'export const compaction = undefined',
      '',
    ].join('\n')
  return [
    ...head,
    "import type { AgentCompactionConfig } from '@falai/agent'",
    '',
    'export const compaction: AgentCompactionConfig = {',
    `  maxTokens: ${tsNumber(o.maxTokens)},`,
    `  compactionThreshold: ${o.compactionThreshold},`,
    `  preserveRecentCount: ${o.preserveRecentCount},`,
    o.maxToolResultChars === null
      ? '  // No tool-result-budget step: a limit no result reaches turns the truncation tier off.'
      : null,
    `  maxToolResultChars: ${o.maxToolResultChars === null ? 'Number.MAX_SAFE_INTEGER' : tsNumber(o.maxToolResultChars)},`,
    '}',
    '',
    '// The agent hands its own provider to compaction (auto_compact summaries are written by it):',
    '// const agent = new Agent({ name, provider, compaction })',
    '',
  ]
    .filter((l): l is string => l !== null)
    .join('\n')
}

/** The one-line account of what falai's CompactionEngine does with these options. */
function describe(o: Options | null): string {
  if (!o) return `${LABEL} never compacts: the agent gets no compaction option.`
  const at = o.maxTokens * o.compactionThreshold
  const tiers = [
    o.maxToolResultChars === null
      ? null
      : `truncates older tool results over ${fmt(o.maxToolResultChars)} characters`,
    'collapses the whitespace of older tool results',
    'summarises everything before them with the agent’s own provider (dropping the oldest messages if that fails)',
  ].filter((t): t is string => t !== null)
  return `${LABEL}, once its chars/4 estimate reaches ${fmt(at)} tokens (maxTokens ${fmt(o.maxTokens)} × ${o.compactionThreshold}), keeps the last ${o.preserveRecentCount} messages as they are and ${tiers.join(', then ')}, stopping at the first tier that gets it under ${fmt(at)}.`
}

function exportFalai(config: CompactionConfig): TargetOutput {
  const warnings: LossyWarning[] = []
  const notes: string[] = []
  const usable = usableTokens(config)
  const byTier = new Map<Tier, ActiveStep>()
  const chosen: ActiveStep[] = []
  for (const s of activeSteps(config)) {
    const tier = TIERS.find((t) => t === s.step.strategy)
    const first = tier && byTier.get(tier)
    if (!tier)
      warnings.push(
        unsupportedStep(
          s,
          LABEL,
          'truncates and whitespace-collapses older tool results, then summarises',
        ),
      )
    else if (first) warnings.push(duplicateStep(s, first, LABEL))
    else {
      byTier.set(tier, s)
      chosen.push(s)
    }
  }
  if (chosen.length === 0) {
    pushAll(warnings, fallbackWarnings(config, LABEL))
    return output(config, null, warnings, notes)
  }
  pushAll(warnings, orderWarnings(chosen))

  // One threshold for all tiers: the first tier's decides, later ones that differ are lost.
  const thresholds = chosen.map((s) => {
    const t = gatedThreshold(s, usable, LABEL, TIER_NAMES[s.step.strategy as Tier])
    pushAll(warnings, t.warnings)
    return t.tokens
  })
  const first = chosen[0] as ActiveStep
  const threshold = thresholds.find((t) => t !== null) ?? Math.round(usable * 0.5)
  chosen.forEach((s, i) => {
    const t = thresholds[i] ?? null
    if (t === threshold) return
    warnings.push(
      t === null
        ? warning(
            `${s.path}.trigger`,
            `${LABEL} runs ${TIER_NAMES[s.step.strategy as Tier]} only at or over maxTokens × compactionThreshold; this step has no threshold.`,
            `it runs at or over ${fmt(threshold)} tokens`,
          )
        : paramWarning(
            s,
            'compactionThreshold',
            LABEL,
            `has one threshold for all tiers; this step runs over ${fmt(t)} tokens`,
            `it runs at or over ${fmt(threshold)} tokens, like ${first.path}`,
          ),
    )
  })
  const maxTokens = typeof first.params.maxTokens === 'number' ? first.params.maxTokens : usable
  const b = budget(threshold, maxTokens)

  // One preserved tail for all tiers.
  const tails = chosen.map((s) => {
    const t = tailOf(s)
    pushAll(warnings, t.warnings)
    return t.count
  })
  const tail = tails[0] as number
  chosen.forEach((s, i) => {
    if (tails[i] !== tail)
      warnings.push(
        paramWarning(
          s,
          s.step.strategy === 'summarize' ? 'preserveRecentMessages' : 'preserveRecentCount',
          LABEL,
          `has one preserveRecentCount for all tiers; this step keeps ${tails[i]}`,
          `every tier keeps the last ${tail} messages, like ${first.path}`,
        ),
      )
  })

  const summarize = byTier.get('summarize')
  if (summarize) pushAll(warnings, summaryWarnings(summarize))
  pushAll(warnings, missingTierWarnings(new Set(byTier.keys()), threshold))
  pushAll(
    warnings,
    targetWarnings(
      chosen.map((s) => ({ step: s, target: targetTokens(s, usable), runsOver: threshold })),
      LABEL,
    ),
  )
  pushAll(warnings, protectionWarnings(config, LABEL, ['recentTurns', 'pinned', 'tools']))
  pushAll(warnings, fallbackWarnings(config, LABEL))

  const budgetStep = byTier.get('tool-result-budget')
  pushAll(notes, falaiNotes(config, byTier))
  return output(
    config,
    {
      maxTokens: b.maxTokens,
      compactionThreshold: b.ratio,
      preserveRecentCount: tail,
      maxToolResultChars: budgetStep ? (budgetStep.params.maxToolResultChars as number) : null,
    },
    warnings,
    notes,
  )
}

/** What falai does whatever its options say (the `falai` preset's fixed mode avoids it). */
function falaiNotes(config: CompactionConfig, byTier: ReadonlyMap<Tier, ActiveStep>): string[] {
  const notes = [
    'falai estimates tokens as characters/4 (+4 per message, tool-call arguments not counted), not with a tokenizer, and counts the preserved tail in messages, so the tail can separate a tool call from its results; the lab keeps whole groups.',
  ]
  const summarize = byTier.get('summarize')
  if (summarize) {
    // src/core/Agent.ts:329-340 (falai-dev/agent 2.6.0): the Agent builds the engine's options
    // from its `compaction` option plus `provider: options.provider`; AgentCompactionConfig
    // (src/types/agent.ts:48-74) has no provider field, so the snippet must not add one.
    notes.push(
      'auto_compact summaries are written by the agent’s own provider, which @falai/agent hands to compaction itself; AgentCompactionConfig has no provider option.',
    )
    if (config.protections.system)
      notes.push(
        'falai’s summary replaces everything before the preserved tail, the system message included; the lab keeps the system prompt.',
      )
  }
  if ([...byTier.values()].some((s) => s.params.faithful !== true))
    notes.push(
      'Set `faithful: true` on the steps to preview falai exactly (re-truncated notices, empty summaries accepted, system prompt summarised).',
    )
  return notes
}

function output(
  config: CompactionConfig,
  options: Options | null,
  warnings: LossyWarning[],
  notes: string[],
): TargetOutput {
  const summary = describe(options)
  return {
    target: 'falai',
    fileName: 'compaction.ts',
    language: 'typescript',
    text: snippet(config, options, summary),
    summary,
    warnings,
    notes,
  }
}

/** @falai/agent `compaction` options as a TypeScript snippet (reproduces the `falai` preset). */
export const falaiTarget: ExportTarget = {
  id: 'falai',
  label: LABEL,
  preset: 'falai',
  export: exportFalai,
}
