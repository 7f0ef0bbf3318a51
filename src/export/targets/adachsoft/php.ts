/**
 * PHP short-array literals for the adachsoft params file: single-quoted strings (only `\` and
 * `'` need escaping there), integers, booleans and `[k => v]` maps.
 */
export type PhpValue =
  string | number | boolean | null | readonly PhpValue[] | { readonly [key: string]: PhpValue }

export function phpString(s: string): string {
  return `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`
}

/** Prints `value` as PHP source; nested lines indented by four spaces from `indent`. */
export function php(value: PhpValue, indent = ''): string {
  if (value === null) return 'null'
  if (typeof value === 'string') return phpString(value)
  if (typeof value === 'number') return String(value)
  if (typeof value === 'boolean') return value ? 'true' : 'false'
  const inner = `${indent}    `
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]'
    const flat = `[${value.map((v) => php(v, indent)).join(', ')}]`
    if (flat.length <= 72 && !flat.includes('\n')) return flat
    return `[\n${value.map((v) => `${inner}${php(v, inner)},`).join('\n')}\n${indent}]`
  }
  const entries = Object.entries(value)
  if (entries.length === 0) return '[]'
  return `[\n${entries.map(([k, v]) => `${inner}${phpString(k)} => ${php(v as PhpValue, inner)},`).join('\n')}\n${indent}]`
}
