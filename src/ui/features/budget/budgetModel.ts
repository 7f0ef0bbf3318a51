/**
 * Pure layout of the budget bars: which segments, how wide, in which order. No React, so the
 * arithmetic is unit-tested on its own.
 */
import { formatCount, formatShare } from '../../lib/format.ts'
import { CATEGORY_LABELS, CATEGORY_ORDER } from '../summary/categoryLabels.ts'

// Structural copies of the store's `BudgetCategories` and `RunView['tokens']`, so this file
// (and its test, which runs in Node) does not pull in the store.
export type BudgetCategories = Readonly<Record<string, number>>
export interface WindowTokens {
  readonly window: number
  readonly reservedOutput: number
  readonly buffer: number
  readonly usable: number
}

// The hidden prefix the reconciliation inferred (what the agent sends but the log does not hold),
// the context's own categories, plus the stubs and summaries compaction leaves behind: one list of
// names for the summary table and the budget bars, so the two never disagree.
export const BUDGET_CATEGORIES = ['inferred', ...CATEGORY_ORDER, 'stubs'] as const
export type BudgetCategory = (typeof BUDGET_CATEGORIES)[number]

export const BUDGET_LABELS: Record<BudgetCategory, string> = {
  inferred: 'System + tools (inferred)',
  ...CATEGORY_LABELS,
  stubs: 'Stubs & summaries',
}

export type SegmentKind = 'used' | 'free' | 'buffer' | 'reserved'

export interface Segment {
  readonly key: string
  readonly kind: SegmentKind
  readonly label: string
  readonly tokens: number
  /** Share of the bar's full length, 0–1. */
  readonly fraction: number
}

export function categoryTokens(budget: BudgetCategories, category: BudgetCategory): number {
  const value = budget[category]
  return typeof value === 'number' && Number.isFinite(value) ? value : 0
}

export function usedTokens(budget: BudgetCategories): number {
  return BUDGET_CATEGORIES.reduce((sum, c) => sum + categoryTokens(budget, c), 0)
}

/**
 * The length both bars share, so before and after compare at a glance: the whole window, or more
 * when a context overflows the usable part (then the reserve is pushed right, never hidden).
 */
export function barScale(window: WindowTokens, budgets: readonly BudgetCategories[]): number {
  const reserve = window.buffer + window.reservedOutput
  const widest = budgets.reduce((w, b) => Math.max(w, usedTokens(b) + reserve), 0)
  return Math.max(1, window.window, widest)
}

/**
 * Used categories left to right, then the free part of the usable window, then the safety buffer,
 * and last the reserved output: space that is set aside, not used.
 */
export function barSegments(
  budget: BudgetCategories,
  window: WindowTokens,
  scale: number,
): Segment[] {
  const segments: Segment[] = []
  const push = (key: string, kind: SegmentKind, label: string, tokens: number) => {
    if (tokens > 0) segments.push({ key, kind, label, tokens, fraction: tokens / scale })
  }
  for (const category of BUDGET_CATEGORIES) {
    push(category, 'used', BUDGET_LABELS[category], categoryTokens(budget, category))
  }
  push('free', 'free', 'Free', Math.max(0, window.usable - usedTokens(budget)))
  push('buffer', 'buffer', 'Safety buffer', window.buffer)
  push('reserved', 'reserved', 'Reserved output', window.reservedOutput)
  return segments
}

/** What a screen reader hears for one bar: the figures, with reserved said apart from used. */
export function barDescription(
  name: string,
  budget: BudgetCategories,
  window: WindowTokens,
): string {
  const used = usedTokens(budget)
  const free = window.usable - used
  const parts = [
    `${name}: ${formatCount(used)} of ${formatCount(window.usable)} usable tokens used (${formatShare(used, window.usable)})`,
    free >= 0 ? `${formatCount(free)} free` : `${formatCount(-free)} over the usable window`,
    `${formatCount(window.reservedOutput)} reserved for output (not used)`,
  ]
  if (window.buffer > 0) parts.push(`${formatCount(window.buffer)} safety buffer`)
  const largest = BUDGET_CATEGORIES.map((c) => [c, categoryTokens(budget, c)] as const)
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([c, n]) => `${BUDGET_LABELS[c]} ${formatCount(n)}`)
  if (largest.length > 0) parts.push(`largest: ${largest.join(', ')}`)
  return parts.join('; ')
}

/** "−27.4 %" / "+0.3 %" / "±0 %": the change of the whole context. */
export function formatChange(before: number, after: number): string {
  if (before <= 0 || before === after) return '±0 %'
  const pct = ((after - before) / before) * 100
  return `${pct < 0 ? '−' : '+'}${Math.abs(pct).toFixed(1)} %`
}
