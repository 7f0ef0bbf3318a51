/**
 * Anthropic Messages API context management (engines.md §6): the `context_management.edits`
 * fragment of a request body. The edits run server-side on every request that carries them, so
 * the translation is per step: clear-tool-uses, clear-thinking and summarize have an edit each;
 * nothing else in our pipeline does.
 */
import type { CompactionConfig } from '../../config/schema.ts'
import { LABEL, clearThinking, clearToolUses, compact, type Built } from './anthropic/edits.ts'
import {
  activeSteps,
  duplicateStep,
  fallbackWarnings,
  json,
  protectionWarnings,
  targetTokens,
  targetWarnings,
  unsupportedStep,
  usableTokens,
  type ActiveStep,
  type Ordered,
} from './index-helpers.ts'
import type { ExportTarget, LossyWarning, TargetOutput } from './types.ts'
import { pushAll } from '../../engine/arrays.ts'

const CONTEXT_MANAGEMENT_BETA = 'context-management-2025-06-27'
const COMPACT_BETA = 'compact-2026-01-12'

/** Edit type per strategy, in the order the API wants them (thinking first). */
const EDIT_ORDER = ['clear-thinking', 'clear-tool-uses', 'summarize'] as const
type Exported = (typeof EDIT_ORDER)[number]

function build(strategy: Exported, s: ActiveStep, config: CompactionConfig, usable: number): Built {
  switch (strategy) {
    case 'clear-thinking':
      return clearThinking(s)
    case 'clear-tool-uses':
      return clearToolUses(s, config, usable)
    case 'summarize':
      return compact(s, config, usable)
    default: {
      const never: never = strategy
      throw new Error(`no edit for ${String(never)}`)
    }
  }
}

function exportAnthropic(config: CompactionConfig): TargetOutput {
  const warnings: LossyWarning[] = []
  const usable = usableTokens(config)
  const chosen = new Map<Exported, ActiveStep>()
  const ordered: Ordered[] = []
  const built = new Map<Exported, Built>()
  for (const s of activeSteps(config)) {
    const strategy = EDIT_ORDER.find((id) => id === s.step.strategy)
    if (!strategy) {
      warnings.push(
        unsupportedStep(s, LABEL, 'clears old tool uses and thinking, and compacts server-side'),
      )
      continue
    }
    const first = chosen.get(strategy)
    if (first) {
      warnings.push(duplicateStep(s, first, LABEL))
      continue
    }
    chosen.set(strategy, s)
    const b = build(strategy, s, config, usable)
    built.set(strategy, b)
    pushAll(warnings, b.warnings)
    ordered.push({ step: s, target: targetTokens(s, usable), runsOver: b.runsOver })
  }
  const edits = EDIT_ORDER.flatMap((id) => {
    const b = built.get(id)
    return b ? [b.edit] : []
  })
  pushAll(warnings, targetWarnings(ordered, LABEL))
  if (edits.length > 0)
    pushAll(warnings, protectionWarnings(config, LABEL, ['recentTurns', 'pinned']))
  pushAll(warnings, fallbackWarnings(config, LABEL))

  const betas = [
    ...(built.has('clear-tool-uses') || built.has('clear-thinking')
      ? [CONTEXT_MANAGEMENT_BETA]
      : []),
    ...(built.has('summarize') ? [COMPACT_BETA] : []),
  ]
  const notes: string[] = []
  if (betas.length > 0)
    notes.push(
      `Send the header \`anthropic-beta: ${betas.join(',')}\` with every request that carries these edits.`,
    )
  if (built.has('summarize'))
    notes.push(
      `Server-side compaction runs only on recent models, and its beta header has changed before (${COMPACT_BETA} at launch): check the current one. Pass the returned compaction block back verbatim on later requests.`,
    )
  if (built.has('clear-thinking'))
    notes.push(
      'clear_thinking needs extended thinking enabled on the request; the API lists it first.',
    )
  if (built.has('clear-tool-uses'))
    notes.push(
      'The API counts input tokens itself (system prompt and tool definitions included) and writes its own placeholder for a cleared result; the lab shows "[cleared]".',
    )
  const clauses = EDIT_ORDER.flatMap((id) => {
    const b = built.get(id)
    return b ? [b.does] : []
  })
  const nothing = edits.length === 0
  const summary = nothing
    ? `Nothing to send: no step of this config maps to an Anthropic context-management edit, so requests go without context_management and the API clears nothing.`
    : `The API ${clauses.join('; it ')}.`
  return {
    target: 'anthropic',
    fileName: nothing ? 'context-management.txt' : 'context-management.json',
    language: nothing ? 'text' : 'json',
    // A request fragment must stay plain JSON (the API accepts no comments or extra keys), so the
    // summary travels beside it; with no edit there is no fragment to merge at all.
    text: nothing ? `${summary}\n` : json({ context_management: { edits } }),
    summary,
    warnings,
    notes,
  }
}

/** Anthropic `context_management.edits` request fragment (reproduces `anthropic-clear-tool-uses`). */
export const anthropicTarget: ExportTarget = {
  id: 'anthropic',
  label: 'Anthropic API context management',
  preset: 'anthropic-clear-tool-uses',
  export: exportAnthropic,
}
