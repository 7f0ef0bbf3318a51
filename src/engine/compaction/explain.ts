/**
 * Why a run changed nothing, in one line (issue 12 item 5). A run with 0 changes otherwise looks
 * like a broken tool: the answer lives in the decisions and step reports, so it is computed here
 * once and every view (headline, CLI) shows the same sentence.
 */
import type { StepReport } from './pipeline.ts'
import { detailOf } from './sentence.ts'
import type { Decision } from './types.ts'

export interface NoChangeInput {
  readonly changes: number
  readonly steps: readonly StepReport[]
  readonly decisions: readonly Decision[]
  readonly tokensBefore: number
  readonly usable: number
  readonly fallbackRan: boolean
}

/** How many reasons the sentence names at most. */
const TOP = 3

/**
 * One sentence saying why nothing changed, or null when something did. In order: no step
 * enabled; no step triggered (at X % of the usable window); every candidate protected; every
 * candidate kept for other reasons (denied by policy, below minimum …, top reasons with counts).
 */
export function explainNoChange(input: NoChangeInput): string | null {
  if (input.changes > 0) return null
  const active = input.steps.filter((s) => s.status !== 'disabled')
  const pct = input.usable > 0 ? Math.round((100 * input.tokensBefore) / input.usable) : 0
  const at = `at ${pct} % of the usable window (${input.tokensBefore} of ${input.usable} tokens)`
  if (active.length === 0) return `Nothing changed: no pipeline step is enabled (${at}).`
  const ran = active.filter((s) => s.status === 'ran')
  if (ran.length === 0 && !input.fallbackRan) {
    const first = active.find((s) => s.status === 'not_triggered')
    if (first) return `Nothing changed: not triggered ${at} — ${first.strategy}: ${first.why}.`
    const other = active[0] as StepReport
    return `Nothing changed: ${other.strategy} ${other.status.replace(/_/g, ' ')} (${other.why}).`
  }
  const kept = input.decisions.filter((d) => d.kind === 'protected' || d.kind === 'skip')
  if (kept.length === 0)
    return `Nothing changed: ${ran.map((s) => s.strategy).join(', ') || 'the fallback'} ran ${at} and found no candidate.`
  if (kept.every((d) => d.kind === 'protected'))
    return `Nothing changed: every candidate is protected — ${top(kept.map(protectionOf))}.`
  const policy = kept.filter((d) => d.reason === 'denied_by_policy')
  if (policy.length === kept.filter((d) => d.kind === 'skip').length)
    return `Nothing changed: every candidate is denied by policy — ${top(policy.map(policyWhy))}.`
  return `Nothing changed: every candidate was kept — ${top(kept.map((d) => d.reason))}.`
}

function protectionOf(d: Decision): string {
  return d.kind === 'protected' ? `protected (${d.protection})` : d.reason
}

/** The policy sentence inside a `denied_by_policy` detail ("category `x` is denied"), if any. */
function policyWhy(d: Decision): string {
  const m =
    /(category `[^`]+` is (?:denied|not on the allow list)|tool `[^`]+` is on deniedTools)/.exec(
      detailOf(d),
    )
  return m ? (m[1] as string) : 'denied_by_policy'
}

/** "a ×12, b ×5, c ×1 (+2 more)". */
function top(items: readonly string[]): string {
  const counts = new Map<string, number>()
  for (const i of items) counts.set(i, (counts.get(i) ?? 0) + 1)
  const sorted = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
  const shown = sorted.slice(0, TOP).map(([k, n]) => `${k} ×${n}`)
  const more = sorted.length - TOP
  return shown.join(', ') + (more > 0 ? ` (+${more} more)` : '')
}
