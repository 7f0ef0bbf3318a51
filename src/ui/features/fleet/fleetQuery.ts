/**
 * The fleet table's filter: the group list's grammar (src/ui/features/table/query.ts) — terms
 * AND-ed, `-` negates, `field:value` for text, `field>n` / `field:a..b` for numbers, quoted values,
 * bare words search every text field — over the fields a conversation has. The group grammar's
 * field lists are fixed to groups, so the fields are declared here; the number syntax is its own
 * `parseNumber` (1k, 2.5M, 40%).
 */
import { parseNumber } from '../table/query.ts'
import type { FleetLine } from './fleetModel.ts'

export const FLEET_TEXT_FIELDS = ['name', 'format', 'model', 'strategy', 'status'] as const
type TextField = (typeof FLEET_TEXT_FIELDS)[number]
export const FLEET_NUMBER_FIELDS = [
  'tokens',
  'after',
  'saved',
  'savedpct',
  'peak',
  'calls',
  'messages',
  'cost',
  'costsaved',
  'risk',
  'first',
  'changes',
] as const
type NumberField = (typeof FLEET_NUMBER_FIELDS)[number]
type Op = '<' | '<=' | '>' | '>=' | '='

type Term =
  | {
      readonly type: 'text'
      readonly field: TextField | null
      readonly value: string
      readonly negate: boolean
    }
  | {
      readonly type: 'number'
      readonly field: NumberField
      readonly op: Op
      readonly value: number
      readonly to?: number
      readonly negate: boolean
    }

export type FleetQuery =
  | { readonly ok: true; readonly match: (line: FleetLine) => boolean }
  | { readonly ok: false; readonly position: number; readonly message: string }

const isText = (f: string): f is TextField => (FLEET_TEXT_FIELDS as readonly string[]).includes(f)
const isNumber = (f: string): f is NumberField =>
  (FLEET_NUMBER_FIELDS as readonly string[]).includes(f)

/** Split on spaces outside double quotes, keeping each token's position. */
function tokens(src: string): { text: string; at: number }[] {
  const out: { text: string; at: number }[] = []
  const re = /(?:[^\s"]+|"[^"]*"?)+/g
  for (let m = re.exec(src); m; m = re.exec(src)) out.push({ text: m[0], at: m.index })
  return out
}

function parseTerm(raw: string): Term | { error: string } {
  const negate = raw.startsWith('-') && raw.length > 1
  const body = negate ? raw.slice(1) : raw
  const m = /^([a-z]+)(:|<=|>=|<|>|=)(.*)$/i.exec(body)
  if (!m)
    return { type: 'text', field: null, value: body.replaceAll('"', '').toLowerCase(), negate }
  const field = (m[1] ?? '').toLowerCase()
  const op = m[2] ?? ':'
  const value = (m[3] ?? '').replaceAll('"', '')
  if (value === '') return { error: `${field}${op} needs a value` }
  if (isNumber(field)) {
    const range = /^(.*)\.\.(.*)$/.exec(value)
    if (op === ':' && range) {
      const lo = range[1] === '' ? -Infinity : parseNumber(range[1] ?? '')
      const hi = range[2] === '' ? Infinity : parseNumber(range[2] ?? '')
      if (lo === null || hi === null)
        return { error: `${field} range needs numbers, got "${value}"` }
      return { type: 'number', field, op: '=', value: lo, to: hi, negate }
    }
    const n = parseNumber(value)
    if (n === null) return { error: `${field} needs a number, got "${value}"` }
    return { type: 'number', field, op: op === ':' ? '=' : (op as Op), value: n, negate }
  }
  if (isText(field)) {
    if (op !== ':') return { error: `${field} is not a number: use ${field}:value` }
    return { type: 'text', field, value: value.toLowerCase(), negate }
  }
  return {
    error: `unknown field "${field}" (try ${[...FLEET_TEXT_FIELDS, ...FLEET_NUMBER_FIELDS].join(', ')})`,
  }
}

function textOf(line: FleetLine, field: TextField): string {
  switch (field) {
    case 'name':
      return line.name
    case 'format':
      return line.format
    case 'model':
      return line.model
    case 'strategy':
      return line.strategies
    case 'status':
      return line.status
    default: {
      const never: never = field
      return never
    }
  }
}

function numberOf(line: FleetLine, field: NumberField): number | null {
  const r = line.row
  if (!r) return null
  switch (field) {
    case 'tokens':
      return r.tokens.last.before
    case 'after':
      return r.tokens.last.after
    case 'saved':
      return r.tokens.last.saved
    case 'savedpct':
      return r.tokens.last.savedFraction * 100
    case 'peak':
      return r.tokens.peak.before
    case 'calls':
      return r.calls
    case 'messages':
      return r.messages
    case 'cost':
      return r.cost.before
    case 'costsaved':
      return r.cost.saved
    case 'risk':
      return r.usedLater
    case 'first':
      return r.firstCompactionCall
    case 'changes':
      return r.changes
    default: {
      const never: never = field
      return never
    }
  }
}

function holds(term: Term, line: FleetLine): boolean {
  if (term.type === 'text') {
    if (term.field !== null) return textOf(line, term.field).toLowerCase().includes(term.value)
    return FLEET_TEXT_FIELDS.some((f) => textOf(line, f).toLowerCase().includes(term.value))
  }
  const v = numberOf(line, term.field)
  if (v === null) return false
  if (term.to !== undefined) return v >= term.value && v <= term.to
  switch (term.op) {
    case '<':
      return v < term.value
    case '<=':
      return v <= term.value
    case '>':
      return v > term.value
    case '>=':
      return v >= term.value
    case '=':
      return v === term.value
    default: {
      const never: never = term.op
      return never
    }
  }
}

export function parseFleetQuery(src: string): FleetQuery {
  const terms: Term[] = []
  for (const t of tokens(src)) {
    const term = parseTerm(t.text)
    if ('error' in term) return { ok: false, position: t.at, message: term.error }
    terms.push(term)
  }
  return { ok: true, match: (line) => terms.every((term) => holds(term, line) !== term.negate) }
}
