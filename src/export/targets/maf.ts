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
import { budgetStep, composed, phases } from './maf/compose.ts'
import { tokenizerBlock } from './maf/header.ts'
import { pyCall, pyInt, targetTokenCount, usableTokens, Warnings } from './maf/python.ts'
import { mafStrategy } from './maf/strategies.ts'
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

function fallbackCall(config: CompactionConfig, usable: number, w: Warnings): string | null {
  const fb = config.fallback
  if (!fb.enabled) return null
  if (!fb.strict) {
    w.add(
      'fallback.strict',
      'The fallback of TokenBudgetComposedStrategy always continues with its strict stage.',
      'If still over budget, system groups are dropped too.',
    )
  }
  return composed(targetTokenCount(fb.target, usable) ?? usable, [], true)
}

function build(config: CompactionConfig, w: Warnings): { body: string; names: string[] } {
  const cw = matchContextWindow(config)
  if (cw)
    return {
      body: `strategy = ${contextWindowCall(cw)}`,
      names: ['ContextWindowCompactionStrategy'],
    }
  const usable = usableTokens(config)
  const steps = config.pipeline
  const plan = phases(steps, usable)
  const inPhase = new Set([...plan.values()].flat())
  const exprs = new Map<number, string>()
  steps.forEach((step, i) => {
    if (!step.enabled || step.strategy === 'token-budget') return
    const expr = mafStrategy(step, i, { usable, w, inPhase: inPhase.has(i) })
    if (expr) exprs.set(i, expr)
  })
  const units: string[] = []
  steps.forEach((_step, i) => {
    const inner = plan.get(i)
    if (inner) {
      const innerExprs = inner.flatMap((k) => exprs.get(k) ?? [])
      units.push(budgetStep(steps, i, inner, innerExprs, usable, w))
    } else if (!inPhase.has(i) && exprs.has(i)) units.push(exprs.get(i) as string)
  })
  const fb = fallbackCall(config, usable, w)
  if (fb) units.push(fb)
  const names = [...new Set(units.join('\n').match(/\b[A-Z][A-Za-z]+Strategy\b/g) ?? [])].sort()
  if (units.length === 0) return { body: 'strategy = None  # nothing to compact with', names }
  if (units.length === 1) return { body: `strategy = ${units[0]}`, names }
  // MAF has no sequence class in Python; a strategy is any async callable, so sequence them.
  const list = units.map((u) => `    ${u.replace(/\n/g, '\n    ')},`).join('\n')
  return {
    body: `STRATEGIES = [\n${list}\n]\n\n\nasync def strategy(messages: list[Message]) -> bool:\n    """Run the strategies in pipeline order; True if any changed the messages."""\n    changed = False\n    for step in STRATEGIES:\n        changed = await step(messages) or changed\n    return changed`,
    names: [...names, 'Message'],
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
    const { body, names } = build(config, w)
    const text = tokenizerBlock(config, names, body)
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
      warnings: w.list,
      notes,
    }
  },
}
