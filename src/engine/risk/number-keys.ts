/**
 * Numbers as distinctive keys: a bare number with enough significant digits, a version, a number
 * with its unit (`45ms`, `1200 tokens`, aliases folded: `3 secs` → `3s`) and a line reference
 * (`line 212`, `L212`). Round and common numbers (`stoplist.ts`) are never keys.
 */
import { isCommonNumber, STOP_TOKENS } from './stoplist.ts'

const UNIT_ALIASES: Readonly<Record<string, string>> = {
  sec: 's',
  secs: 's',
  second: 's',
  seconds: 's',
  mins: 'min',
  minute: 'min',
  minutes: 'min',
  hr: 'h',
  hrs: 'h',
  hour: 'h',
  hours: 'h',
  bytes: 'b',
  byte: 'b',
  token: 'tokens',
  line: 'lines',
  test: 'tests',
  char: 'chars',
}

/** Units written straight after the number (`45ms`, `12MB`, `87%`). */
export const UNIT_TIGHT_RE =
  /(?<![\w.])(\d+(?:\.\d+)?)(ms|µs|us|ns|s|secs?|m|min|mins|h|hrs?|kb|mb|gb|tb|kib|mib|gib|b|%|px)(?![\w%])/gi
/** Units written after a space must be words (`45 ms`, `1200 tokens`), never a lone letter. */
export const UNIT_SPACED_RE =
  /(?<![\w.])(\d+(?:\.\d+)?) (ms|µs|us|ns|secs?|seconds?|mins?|minutes?|hrs?|hours?|kb|mb|gb|tb|kib|mib|gib|bytes?|tokens?|chars?|lines?|tests?|%)(?![\w%])/gi
export const LINE_RE = /\blines? ?#?(\d{2,6})\b|\bL(\d{2,6})\b/g

/** Significant digits of a number: no sign, dot, leading or trailing zeros. */
function significant(num: string): number {
  return num.replace(/\./g, '').replace(/^0+/, '').replace(/0+$/, '').length
}

export function unitKey(num: string, unit: string): string | null {
  if (significant(num) < 2) return null
  if (!num.includes('.') && isCommonNumber(num)) return null
  const u = unit.toLowerCase()
  return `${num}${UNIT_ALIASES[u] ?? u}`
}

/**
 * `2,048` → `2048`; a bare number is distinctive with ≥ 4 digits unless it is round or common.
 * Three-digit numbers collide too often by chance in a long session (`sed -n '180,520p'` on one
 * file, `520` in an unrelated output later); they still count with context: `line 212`,
 * `parse.ts:212`, `184ms`.
 */
export function numberKey(token: string): string | null {
  const num = token.replace(/^v/, '').replace(/,/g, '')
  if (/^\d+(\.\d+){2,}$/.test(num)) {
    // Versions and addresses: `1.2.3`, `10.0.3.7` (but not `1.0.0` or `127.0.0.1`).
    return num.replace(/[.0]/g, '').length >= 2 && !STOP_TOKENS.has(num) ? num : null
  }
  if (!/^\d+(\.\d+)?$/.test(num)) return null
  const digits = num.replace('.', '').replace(/^0+/, '')
  if (digits.length < 4) return null
  if (isCommonNumber(num.includes('.') ? digits : num)) return null
  return num
}
