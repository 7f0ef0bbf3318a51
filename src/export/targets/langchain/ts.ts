/**
 * A tiny TypeScript literal printer for the LangChain snippet: objects with bare keys, numbers
 * with `_` separators, strings JSON-quoted. `Code` wraps an expression printed verbatim
 * (`new ClearToolUsesEdit(…)`, a variable name).
 */
export class Code {
  readonly text: string
  constructor(text: string) {
    this.text = text
  }
}

export type TsValue =
  | string
  | number
  | boolean
  | Code
  | readonly TsValue[]
  | { readonly [key: string]: TsValue | undefined }

export function tsInt(n: number): string {
  if (!Number.isInteger(n) || Math.abs(n) < 10_000) return String(n)
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, '_')
}

const IDENT = /^[A-Za-z_$][\w$]*$/

/** Prints `value` as TypeScript source, nested lines indented by two spaces from `indent`. */
export function ts(value: TsValue, indent = ''): string {
  if (value instanceof Code) return value.text
  if (typeof value === 'string') return JSON.stringify(value)
  if (typeof value === 'number') return tsInt(value)
  if (typeof value === 'boolean') return String(value)
  const inner = `${indent}  `
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]'
    const flat = `[${value.map((v) => ts(v, indent)).join(', ')}]`
    if (flat.length <= 60 && !flat.includes('\n')) return flat
    return `[\n${value.map((v) => `${inner}${ts(v, inner)},`).join('\n')}\n${indent}]`
  }
  const entries = Object.entries(value as Record<string, TsValue | undefined>).filter(
    (e): e is [string, TsValue] => e[1] !== undefined,
  )
  if (entries.length === 0) return '{}'
  const key = (k: string) => (IDENT.test(k) ? k : JSON.stringify(k))
  const flat = `{ ${entries.map(([k, v]) => `${key(k)}: ${ts(v, indent)}`).join(', ')} }`
  if (flat.length <= 60 && !flat.includes('\n')) return flat
  return `{\n${entries.map(([k, v]) => `${inner}${key(k)}: ${ts(v, inner)},`).join('\n')}\n${indent}}`
}
