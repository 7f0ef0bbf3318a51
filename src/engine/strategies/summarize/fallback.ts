import type { StrategyContext } from '../../compaction/context.ts'
import { falaiChars, falaiGroupChars, fmt, type Gate } from '../tool-result-budget/falai.ts'

/**
 * falai's `aggressiveTruncate`, in whole groups: keep the preserved tail (and everything that may
 * not be removed), then add the other groups back newest-first while the measure stays strictly
 * under the threshold; stop at the first that does not fit and drop it and everything older.
 * Faithful: falai's character estimate (ceil(chars/4) of the candidate history). Fixed: exact tokens.
 */
export function truncateAfterFailure(
  ctx: StrategyContext,
  candidates: readonly number[],
  gate: Gate,
  failure: string,
  faithful: boolean,
): void {
  const size = (g: number): number => (faithful ? falaiGroupChars(ctx, g) : ctx.view.groupTokens(g))
  const measure = (units: number): number => (faithful ? Math.ceil(units / 4) : units)
  let base =
    (faithful ? falaiChars(ctx) : ctx.totalTokens()) - candidates.reduce((t, g) => t + size(g), 0)

  let cut = -1 // candidates[0..cut] are dropped
  for (let i = candidates.length - 1; i >= 0; i--) {
    const g = candidates[i] as number
    const next = base + size(g)
    if (measure(next) < gate.threshold) {
      base = next
      ctx.skip(
        g,
        'below_threshold',
        `Kept by the truncation fallback after the summary failed: with it the context is ${gate.measureName} ${fmt(measure(next))}, still under ${fmt(gate.threshold)}`,
      )
      continue
    }
    cut = i
    break
  }
  for (let i = 0; i <= cut; i++) {
    const g = candidates[i] as number
    ctx.exclude(
      g,
      'truncation',
      `Dropped by the truncation fallback because the summary failed (${failure}): falai keeps the preserved tail and adds older messages back newest-first while ${gate.measureName} stays under ${fmt(gate.threshold)}; ${i === cut ? 'this group did not fit' : 'a newer group already did not fit'}`,
    )
  }
}
