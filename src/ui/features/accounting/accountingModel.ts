/** Pure helpers of the accounting panel (unit-tested in Node). */

/** "reconciled" figures were fitted on the transcript's reported usage; "estimated" were not. */
export function sourceLabel(source: 'reconciled' | 'estimated'): string {
  return source === 'reconciled' ? 'reconciled with reported usage' : 'estimated (nothing to fit)'
}

/** A fraction as a percentage with one decimal, "–" when unknown. */
export function percent(x: number | null): string {
  return x === null || !Number.isFinite(x) ? '–' : `${(Math.abs(x) * 100).toFixed(1)} %`
}

/** A config override value, when it is a usable number. */
export function overrideValue(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null
}

/** Dollars with cents, or four decimals under a dollar ("$0.0123"). */
export function formatUsd(x: number | null): string {
  if (x === null || !Number.isFinite(x)) return '–'
  return Math.abs(x) >= 1 ? `$${x.toFixed(2)}` : `$${x.toFixed(4)}`
}
