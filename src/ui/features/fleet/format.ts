import { formatCount } from '../../lib/format.ts'

export const pct = (fraction: number | null | undefined): string =>
  fraction === null || fraction === undefined ? '–' : `${(fraction * 100).toFixed(1)} %`

export const usd = (value: number | null | undefined): string =>
  value === null || value === undefined
    ? '–'
    : value >= 100
      ? `$${Math.round(value).toLocaleString('en-US')}`
      : `$${value.toFixed(2)}`

export const count = (value: number | null | undefined): string =>
  value === null || value === undefined ? '–' : formatCount(value)
