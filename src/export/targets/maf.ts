/**
 * Microsoft Agent Framework (Python) export: our pipeline as `agent_framework` compaction
 * strategies wired into a `CompactionProvider`.
 *
 * MAF strategies have no triggers; the only budget-aware composition is
 * `TokenBudgetComposedStrategy(token_budget, tokenizer, strategies, early_stop)`, which runs its
 * inner strategies only when over budget and then drops oldest groups (and, strictly, system
 * groups) until under it. Our engine spells that as inner steps triggered at "tokens over B"
 * followed by a `token-budget` step with budget B — such runs become one composed strategy.
 * The exact `ContextWindowCompactionStrategy` shape collapses to that class.
 */
import type { CompactionConfig } from '../../config/schema.ts'
import { matchContextWindow, type ContextWindowArgs } from './maf/context-window.ts'
import { budgetStep, composed, composedDoes, phases } from './maf/compose.ts'
import { tokenizerBlock } from './maf/header.ts'
import { pyCall, pyInt, targetTokenCount, usableTokens, Warnings } from './maf/python.ts'
import { GATE_CLASS, mafStrategy, type Unit } from './maf/strategies.ts'
import { fmt } from './index-helpers.ts'
import type { ExportTarget, TargetOutput } from './types.ts'

function contextWindowCall(a: ContextWindowArgs): string {
  const args = [
    `max_context_window_tokens=${pyInt(a.maxContextWindowTokens)}`,
    `max_output_tokens=${pyInt(a.maxOutputTokens)}`,
    'tokenizer=tokenizer',
  ]
  // Only non-defaults, so the preset reads like MAF's own docstring example.
  if (a.toolEvictionThreshold !== 0.5)
    args.push(`tool_eviction_threshold=${a.toolEvictionThreshold}`)
  if (a.truncationThreshold !== 0.8) args.push(`truncation_threshold=${a.truncationThreshold}`)
  if (a.keepLastToolCallGroups !== 4) {
    args.push(`keep_last_tool_call_groups=${pyInt(a.keepLastToolCallGroups)}`)
  }
  return pyCall('ContextWindowCompactionStrategy', args)
}

function configWarnings(config: CompactionConfig, w: Warnings): void {
  const pr = config.protections
  if (pr.recentTurns > 0) {
    w.add(
      'protections.recentTurns',
      'Agent Framework has no turn-based protection.',
      'Only each strategy’s own keep count and the newest group are kept.',
    )
  }
  if (pr.pinned.length > 0) {
    w.add(
      'protections.pinned',
      'Agent Framework cannot pin messages.',
      'Pinned messages are compacted like any other.',
    )
  }
  if (pr.tools.length > 0) {
    w.add(
      'protections.tools',
      'Agent Framework strategies have no per-tool protection.',
      'Calls to these tools are collapsed, dropped or summarised like any other.',
    )
  }
}

function fallbackCall(config: CompactionConfig, usable: number, w: Warnings): Unit | null {
  const fb = config.fallback
  if (!fb.enabled) return null
  if (!fb.strict) {
    w.add(
      'fallback.strict',
      'The fallback of TokenBudgetComposedStrategy always continues with its strict stage.',
      'If still over budget, system groups are dropped too.',
    )
  }
  const budget = targetTokenCount(fb.target, usable) ?? usable
  return { expr: composed(budget, [], true), does: composedDoes(budget, []) }
}

function contextWindowDoes(a: ContextWindowArgs): string {
  const budget = a.maxContextWindowTokens - a.maxOutputTokens
  const evict = Math.floor(budget * a.toolEvictionThreshold)
  const truncate = Math.floor(budget * a.truncationThreshold)
  return `once over ${fmt(evict)} tokens collapses all but the newest ${a.keepLastToolCallGroups} tool-call groups into "[Tool results: …]" digests, then drops the oldest groups until at most ${fmt(evict)} remain; once over ${fmt(truncate)} tokens drops the oldest groups down to ${fmt(evict)}`
}

interface Built {
  readonly body: string
  readonly names: string[]
  /** Clauses of the one-line summary, in the order the strategies run. */
  readonly does: string[]
}

function build(config: CompactionConfig, w: Warnings): Built {
  const cw = matchContextWindow(config)
  if (cw)
    return {
      body: `strategy = ${contextWindowCall(cw)}`,
      names: ['ContextWindowCompactionStrategy'],
      does: [contextWindowDoes(cw)],
    }
  const usable = usableTokens(config)
  const steps = config.pipeline
  const plan = phases(steps, usable)
  const inPhase = new Set([...plan.values()].flat())
  const made = new Map<number, Unit>()
  steps.forEach((step, i) => {
    if (!step.enabled || step.strategy === 'token-budget') return
    const unit = mafStrategy(step, i, { usable, w, inPhase: inPhase.has(i) })
    if (unit) made.set(i, unit)
  })
  const units: Unit[] = []
  steps.forEach((_step, i) => {
    const inner = plan.get(i)
    if (inner) {
      const innerUnits = inner.flatMap((k) => made.get(k) ?? [])
      units.push(budgetStep(steps, i, inner, innerUnits, usable, w))
    } else if (!inPhase.has(i)) {
      const unit = made.get(i)
      if (unit) units.push(unit)
    }
  })
  const fb = fallbackCall(config, usable, w)
  if (fb) units.push(fb)
  const exprs = units.map((u) => u.expr)
  const does = units.map((u) => u.does)
  const names = [...new Set(exprs.join('\n').match(/\b[A-Z][A-Za-z]+Strategy\b/g) ?? [])]
  if (exprs.some((e) => new RegExp(`\\b${GATE_CLASS}\\(`).test(e))) names.push(GATE_CLASS)
  names.sort()
  if (exprs.length === 0) return { body: 'strategy = None  # nothing to compact with', names, does }
  if (exprs.length === 1) return { body: `strategy = ${exprs[0]}`, names, does }
  // MAF has no sequence class in Python; a strategy is any async callable, so sequence them.
  const list = exprs.map((u) => `    ${u.replace(/\n/g, '\n    ')},`).join('\n')
  return {
    body: `STRATEGIES = [\n${list}\n]\n\n\nasync def strategy(messages: list[Message]) -> bool:\n    """Run the strategies in pipeline order; True if any changed the messages."""\n    changed = False\n    for step in STRATEGIES:\n        changed = await step(messages) or changed\n    return changed`,
    names: [...names, 'Message'],
    does,
  }
}

/** Microsoft Agent Framework (Python): reproduces the `maf-context-window` preset exactly. */
export const mafTarget: ExportTarget = {
  id: 'maf',
  label: 'Microsoft Agent Framework (Python)',
  preset: 'maf-context-window',
  export(config: CompactionConfig): TargetOutput {
    const w = new Warnings()
    configWarnings(config, w)
    const { body, names, does } = build(config, w)
    const summary =
      does.length === 0
        ? 'Agent Framework leaves the history as it is: no step of this config maps to a strategy.'
        : `Agent Framework, before each agent run, ${does.join('; ')}.`
    const text = tokenizerBlock(config, names, body, summary)
    const notes = [
      'CompactionProvider compacts the history loaded before each run; to compact inside the tool loop as well, pass the same strategy as compaction_strategy to the Agent.',
      'MAF counts tokens over each message serialised as JSON and excludes tool definitions and the system prompt outside the messages, so its counts run a little apart from ours.',
    ]
    if (config.protections.system && /TokenBudgetComposedStrategy|ContextWindow/.test(body)) {
      notes.push(
        'If the system messages alone exceed a budget, MAF’s strict fallback drops them; our engine refuses to while the system protection is on.',
      )
    }
    if (/SummarizationStrategy/.test(body)) {
      notes.push('Set summary_client to the chat client that should write summaries.')
    }
    return {
      target: 'maf',
      fileName: 'compaction.py',
      language: 'python',
      text,
      summary,
      warnings: w.list,
      notes,
    }
  },
}
