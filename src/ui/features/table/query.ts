/**
 * The table's filter grammar, parsed and matched without React:
 *
 *   tool:read status:stubbed tokens>1000 -role:user /stale|old/i resource:"src/a b.ts" index:10..20
 *
 * Terms are separated by spaces and AND-ed. A parse error never throws: it comes back with its
 * position so the input can point at it, and the table keeps showing rows unfiltered by the query.
 */
import type { GroupStatus } from '../../../store/index.ts'

/** Fields matched as case-insensitive substrings. */
export const TEXT_FIELDS = ['tool', 'role', 'kind', 'strategy', 'resource', 'reason'] as const
export type TextField = (typeof TEXT_FIELDS)[number]

/** Fields compared as numbers (`tokens` is the size before compaction, `saved` = before − after). */
export const NUMBER_FIELDS = ['tokens', 'before', 'after', 'saved', 'index', 'turn'] as const
export type NumberField = (typeof NUMBER_FIELDS)[number]

/** `changed` is any status a strategy produced by shrinking or dropping the group. */
export const STATUS_VALUES = [
  'kept',
  'excluded',
  'stubbed',
  'trimmed',
  'summarised',
  'protected',
  'changed',
] as const
export type StatusValue = (typeof STATUS_VALUES)[number]

export type CompareOp = '<' | '<=' | '>' | '>=' | '='

/** The fields of a row the grammar can see. */
export interface QueryRow {
  readonly id: string
  readonly index: number
  readonly kind: string
  readonly role: string
  readonly tool: string
  readonly resource: string
  readonly status: GroupStatus
  readonly strategy: string
  readonly reason: string
  readonly detail: string
  readonly before: number
  readonly after: number
  readonly turn: number
}

export type Term =
  | {
      readonly type: 'text'
      readonly field: TextField
      readonly value: string
      readonly negate: boolean
    }
  | { readonly type: 'status'; readonly value: StatusValue; readonly negate: boolean }
  | {
      readonly type: 'compare'
      readonly field: NumberField
      readonly op: CompareOp
      readonly value: number
      readonly negate: boolean
    }
  | {
      readonly type: 'range'
      readonly field: NumberField
      readonly from: number
      readonly to: number
      readonly negate: boolean
    }
  | { readonly type: 'regex'; readonly pattern: RegExp; readonly negate: boolean }
  | { readonly type: 'word'; readonly value: string; readonly negate: boolean }

/** Where the query stops making sense: 0-based character offset and a sentence saying why. */
export interface QueryError {
  readonly position: number
  readonly message: string
}

export type ParsedQuery =
  | { readonly ok: true; readonly terms: readonly Term[] }
  | { readonly ok: false; readonly error: QueryError }

const CHANGED: ReadonlySet<GroupStatus> = new Set(['excluded', 'stubbed', 'trimmed', 'summarised'])
/** Only flags that keep `RegExp.test` stateless and meaningful on one line of text. */
const REGEX_FLAGS = /^[imsu]*$/

class ParseFailure extends Error {
  readonly position: number
  constructor(position: number, message: string) {
    super(message)
    this.position = position
  }
}

const isSpace = (c: string | undefined) => c === ' ' || c === '\t' || c === '\n' || c === '\r'

/** Read a `"quoted value"` starting at `start` (on the opening quote); `\"` and `\\` escape. */
function readQuoted(src: string, start: number): { value: string; end: number } {
  let value = ''
  let i = start + 1
  while (i < src.length) {
    const c = src[i]
    if (c === '\\' && i + 1 < src.length) {
      value += src[i + 1]
      i += 2
      continue
    }
    if (c === '"') return { value, end: i + 1 }
    value += c
    i++
  }
  throw new ParseFailure(start, 'unclosed quote: add a closing "')
}

/** Read `/pattern/flags` starting at `start` (on the opening slash). */
function readRegex(src: string, start: number): { pattern: RegExp; end: number } {
  let i = start + 1
  let body = ''
  while (i < src.length && src[i] !== '/') {
    if (src[i] === '\\' && i + 1 < src.length) {
      body += src.slice(i, i + 2)
      i += 2
      continue
    }
    body += src[i]
    i++
  }
  if (i >= src.length) throw new ParseFailure(start, 'unclosed regular expression: end it with /')
  i++
  let flags = ''
  while (i < src.length && !isSpace(src[i])) flags += src[i++]
  if (!REGEX_FLAGS.test(flags)) {
    throw new ParseFailure(start, `unsupported regex flags "${flags}" (use i, m, s or u)`)
  }
  if (body === '') throw new ParseFailure(start, 'empty regular expression')
  try {
    return { pattern: new RegExp(body, flags), end: i }
  } catch (e) {
    const why = e instanceof Error ? e.message.replace(/^Invalid regular expression: /, '') : ''
    throw new ParseFailure(start, `invalid regular expression: ${why}`)
  }
}

/** Read an unquoted run of characters up to the next space. */
function readBare(src: string, start: number): { value: string; end: number } {
  let i = start
  while (i < src.length && !isSpace(src[i])) i++
  return { value: src.slice(start, i), end: i }
}

const NUMBER = /^(\d+(?:\.\d+)?|\.\d+)([km]?)$/i

/** `1500`, `1.5k`, `2m`, `12_000`, `12,000` → a number; null when it is not one. */
export function parseNumber(text: string): number | null {
  const m = NUMBER.exec(text.replaceAll('_', '').replaceAll(',', ''))
  if (!m) return null
  const base = Number(m[1])
  const unit = (m[2] ?? '').toLowerCase()
  return unit === 'k' ? base * 1_000 : unit === 'm' ? base * 1_000_000 : base
}

function numberAt(text: string, position: number, field: string): number {
  const n = parseNumber(text)
  if (n === null) throw new ParseFailure(position, `${field} needs a number, got "${text}"`)
  return n
}

const isTextField = (f: string): f is TextField => (TEXT_FIELDS as readonly string[]).includes(f)
const isNumberField = (f: string): f is NumberField =>
  (NUMBER_FIELDS as readonly string[]).includes(f)
const isStatus = (v: string): v is StatusValue => (STATUS_VALUES as readonly string[]).includes(v)

/** `field:value` with a numeric field: an exact value or an inclusive `a..b` range (ends optional). */
function numberColon(field: NumberField, value: string, at: number, negate: boolean): Term {
  const dots = value.indexOf('..')
  if (dots < 0)
    return { type: 'compare', field, op: '=', value: numberAt(value, at, field), negate }
  const lo = value.slice(0, dots)
  const hi = value.slice(dots + 2)
  if (lo === '' && hi === '') throw new ParseFailure(at, `${field} range needs at least one end`)
  const from = lo === '' ? -Infinity : numberAt(lo, at, field)
  const to = hi === '' ? Infinity : numberAt(hi, at + dots + 2, field)
  if (from > to) throw new ParseFailure(at, `${field} range runs backwards (${lo} > ${hi})`)
  return { type: 'range', field, from, to, negate }
}

const FIELD_START = /^([a-z]+)(>=|<=|>|<|=|:)/i

/** One term starting at `start` (after any leading `-`). */
function readTerm(src: string, start: number, negate: boolean): { term: Term; end: number } {
  const c = src[start]
  if (c === '/') {
    const { pattern, end } = readRegex(src, start)
    return { term: { type: 'regex', pattern, negate }, end }
  }
  if (c === '"') {
    const { value, end } = readQuoted(src, start)
    if (value === '') throw new ParseFailure(start, 'empty quoted word')
    return { term: { type: 'word', value: value.toLowerCase(), negate }, end }
  }
  const head = FIELD_START.exec(src.slice(start))
  if (!head) {
    const { value, end } = readBare(src, start)
    return { term: { type: 'word', value: value.toLowerCase(), negate }, end }
  }
  const field = (head[1] ?? '').toLowerCase()
  const op = head[2] ?? ':'
  const valueAt = start + head[0].length
  const read = src[valueAt] === '"' ? readQuoted(src, valueAt) : readBare(src, valueAt)
  const { value, end } = read
  if (value === '') throw new ParseFailure(valueAt, `${field}${op} needs a value`)

  if (isNumberField(field)) {
    if (op === ':') return { term: numberColon(field, value, valueAt, negate), end }
    const n = numberAt(value, valueAt, field)
    return { term: { type: 'compare', field, op: op as CompareOp, value: n, negate }, end }
  }
  if (op !== ':') {
    const known = isTextField(field) || field === 'status'
    throw new ParseFailure(
      start,
      known
        ? `${field} is not a number: use ${field}:value`
        : `unknown field "${field}" (numbers: ${NUMBER_FIELDS.join(', ')})`,
    )
  }
  if (field === 'status') {
    const v = value.toLowerCase()
    if (!isStatus(v)) {
      throw new ParseFailure(valueAt, `unknown status "${value}" (${STATUS_VALUES.join(', ')})`)
    }
    return { term: { type: 'status', value: v, negate }, end }
  }
  if (isTextField(field)) {
    return { term: { type: 'text', field, value: value.toLowerCase(), negate }, end }
  }
  throw new ParseFailure(
    start,
    `unknown field "${field}" (try ${[...TEXT_FIELDS, 'status', ...NUMBER_FIELDS].join(', ')})`,
  )
}

/** Parse the whole query; an empty query has no terms (matches everything). */
export function parseQuery(src: string): ParsedQuery {
  const terms: Term[] = []
  let i = 0
  try {
    while (i < src.length) {
      if (isSpace(src[i])) {
        i++
        continue
      }
      let negate = false
      const termStart = i
      if (src[i] === '-') {
        negate = true
        i++
        if (i >= src.length || isSpace(src[i])) {
          throw new ParseFailure(termStart, 'a lone "-" negates nothing: write -term')
        }
      }
      const { term, end } = readTerm(src, i, negate)
      if (end < src.length && !isSpace(src[end])) {
        throw new ParseFailure(end, 'expected a space between terms')
      }
      terms.push(term)
      i = end
    }
  } catch (e) {
    if (e instanceof ParseFailure)
      return { ok: false, error: { position: e.position, message: e.message } }
    throw e
  }
  return { ok: true, terms }
}

function numberOf(row: QueryRow, field: NumberField): number {
  switch (field) {
    case 'tokens':
    case 'before':
      return row.before
    case 'after':
      return row.after
    case 'saved':
      return row.before - row.after
    case 'index':
      return row.index
    case 'turn':
      return row.turn
    default: {
      const never: never = field
      return never
    }
  }
}

function compare(a: number, op: CompareOp, b: number): boolean {
  switch (op) {
    case '<':
      return a < b
    case '<=':
      return a <= b
    case '>':
      return a > b
    case '>=':
      return a >= b
    case '=':
      return a === b
    default: {
      const never: never = op
      return never
    }
  }
}

/** What `/regex/` searches: the reason (with strategy and detail), resource, tools and kind. */
function regexText(row: QueryRow): string {
  return [row.reason, row.strategy, row.detail, row.resource, row.tool, row.kind].join('\n')
}

/** What a bare word searches: every text field, the status and the id. */
function anyText(row: QueryRow): string {
  return [
    row.id,
    row.kind,
    row.role,
    row.tool,
    row.resource,
    row.status,
    row.strategy,
    row.reason,
    row.detail,
  ]
    .join('\n')
    .toLowerCase()
}

function matchesTerm(row: QueryRow, term: Term): boolean {
  switch (term.type) {
    case 'text':
      return row[term.field].toLowerCase().includes(term.value)
    case 'status':
      return term.value === 'changed' ? CHANGED.has(row.status) : row.status === term.value
    case 'compare':
      return compare(numberOf(row, term.field), term.op, term.value)
    case 'range': {
      const v = numberOf(row, term.field)
      return v >= term.from && v <= term.to
    }
    case 'regex':
      return term.pattern.test(regexText(row))
    case 'word':
      return anyText(row).includes(term.value)
    default: {
      const never: never = term
      return never
    }
  }
}

/** A row predicate for parsed terms: every term must hold (a negated one must not). */
export function compileQuery(terms: readonly Term[]): (row: QueryRow) => boolean {
  if (terms.length === 0) return () => true
  return (row) => terms.every((t) => matchesTerm(row, t) !== t.negate)
}

/** Rows matching `query`; a query that does not parse filters nothing (its error is reported). */
export function filterByQuery<R extends QueryRow>(
  rows: readonly R[],
  parsed: ParsedQuery,
): readonly R[] {
  if (!parsed.ok || parsed.terms.length === 0) return rows
  const match = compileQuery(parsed.terms)
  return rows.filter(match)
}

/** The grammar in a few lines, for the help popover (kept beside the parser so both stay in step). */
export const QUERY_HELP: readonly { readonly example: string; readonly meaning: string }[] = [
  { example: 'tool:read', meaning: `text fields contain a value: ${TEXT_FIELDS.join(', ')}` },
  { example: 'status:stubbed', meaning: `exact status: ${STATUS_VALUES.join(', ')}` },
  { example: 'tokens>1000', meaning: 'numbers with > >= < <= =: tokens (before), after, saved' },
  { example: 'index:10..20', meaning: 'inclusive range (either end optional); turn:3 is exact' },
  { example: '-role:user', meaning: 'a leading - negates a term' },
  { example: '/stale|old/i', meaning: 'regex over reason, strategy, resource, tool and kind' },
  { example: 'resource:"src/a b.ts"', meaning: 'quote values with spaces' },
  { example: 'grep', meaning: 'a bare word matches any text field' },
]
