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

const compactFormat = new Intl.NumberFormat('en-US', {
  notation: 'compact',
  maximumFractionDigits: 1,
})

/** 1.2M, 340k: where columns are narrow (the exact figure goes in the title). */
export const short = (value: number | null | undefined): string =>
  value === null || value === undefined ? '–' : compactFormat.format(value)
