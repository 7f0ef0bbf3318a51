/** Small display helpers shared by the features (pure, no React). */

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 })

/** 12345 → "12,345" (a fixed locale, so figures and tests read the same everywhere). */
export function formatCount(value: number): string {
  return integer.format(value)
}

/** 0.9312 → "93%". */
export function formatPercent(fraction: number): string {
  if (!Number.isFinite(fraction)) return '—'
  return `${Math.round(fraction * 100)}%`
}

/** Share of `part` in `whole` with one decimal, "—" when the whole is empty. */
export function formatShare(part: number, whole: number): string {
  if (whole <= 0) return '—'
  return `${((part / whole) * 100).toFixed(1)}%`
}

/** Signed difference: "+1,234" / "−56". */
export function formatSigned(value: number): string {
  if (value === 0) return '±0'
  return (value > 0 ? '+' : '−') + formatCount(Math.abs(value))
}

export function formatMs(ms: number | null): string {
  if (ms === null) return ''
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`
}
