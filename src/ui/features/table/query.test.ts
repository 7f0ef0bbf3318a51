import { describe, expect, it } from 'vitest'
import { compileQuery, filterByQuery, parseNumber, parseQuery, type QueryRow } from './query.ts'

function row(over: Partial<QueryRow> & { readonly index: number }): QueryRow {
  return {
    id: `g${over.index}`,
    kind: 'tool_call',
    role: 'assistant',
    tool: '',
    resource: '',
    status: 'kept',
    strategy: '',
    reason: '',
    detail: '',
    before: 100,
    after: 100,
    turn: 1,
    ...over,
  }
}

const ROWS: readonly QueryRow[] = [
  row({
    index: 0,
    id: 'system',
    kind: 'system',
    role: 'system',
    before: 3000,
    after: 3000,
    turn: 0,
  }),
  row({ index: 1, kind: 'user', role: 'user', before: 40, after: 40 }),
  row({
    index: 2,
    tool: 'Read',
    resource: 'src/a b.ts',
    status: 'stubbed',
    strategy: 'supersede_stale_results',
    reason: 'stale_result',
    detail: 'a newer Read of src/a b.ts',
    before: 5000,
    after: 30,
  }),
  row({ index: 3, tool: 'Read, Grep', resource: 'src/c.ts', before: 1200, after: 1200, turn: 2 }),
  row({
    index: 4,
    tool: 'Bash',
    resource: 'npm test',
    status: 'excluded',
    strategy: 'drop_oldest',
    reason: 'token_budget',
    before: 800,
    after: 0,
    turn: 2,
  }),
  row({
    index: 5,
    kind: 'assistant_text',
    status: 'protected',
    strategy: 'protect',
    reason: 'recent_turns',
    turn: 3,
  }),
  row({ index: 6, tool: 'Edit', status: 'trimmed', before: 2000, after: 500, turn: 3 }),
]

/** Indexes of the rows a query keeps (fails the test on a parse error). */
function run(query: string): number[] {
  const parsed = parseQuery(query)
  if (!parsed.ok) throw new Error(`${parsed.error.position}: ${parsed.error.message}`)
  return filterByQuery(ROWS, parsed).map((r) => r.index)
}

function errorOf(query: string) {
  const parsed = parseQuery(query)
  if (parsed.ok) throw new Error(`expected "${query}" not to parse`)
  return parsed.error
}

describe('parseQuery: fields', () => {
  it('an empty or blank query keeps every row', () => {
    expect(run('')).toEqual([0, 1, 2, 3, 4, 5, 6])
    expect(run('   ')).toEqual([0, 1, 2, 3, 4, 5, 6])
  })

  it('text fields are case-insensitive substrings', () => {
    expect(run('tool:read')).toEqual([2, 3])
    expect(run('TOOL:GREP')).toEqual([3])
    expect(run('role:user')).toEqual([1])
    expect(run('kind:assistant')).toEqual([5])
    expect(run('strategy:stale')).toEqual([2])
    expect(run('resource:src/')).toEqual([2, 3])
    expect(run('reason:budget')).toEqual([4])
  })

  it('status is exact, and changed covers excluded/stubbed/trimmed/summarised', () => {
    expect(run('status:stubbed')).toEqual([2])
    expect(run('status:Kept')).toEqual([0, 1, 3])
    expect(run('status:changed')).toEqual([2, 4, 6])
    expect(run('status:protected')).toEqual([5])
  })

  it('terms are AND-ed', () => {
    expect(run('status:stubbed tool:read')).toEqual([2])
    expect(run('tool:read turn:2')).toEqual([3])
    expect(run('tool:read status:excluded')).toEqual([])
  })

  it('a leading - negates a term', () => {
    expect(run('-role:user -role:system')).toEqual([2, 3, 4, 5, 6])
    expect(run('tool:read -status:stubbed')).toEqual([3])
    expect(run('-/stale/')).toEqual([0, 1, 3, 4, 5, 6])
  })
})

describe('parseQuery: numbers', () => {
  it('compares tokens (before), after and saved', () => {
    expect(run('tokens>1000')).toEqual([0, 2, 3, 6])
    expect(run('before>=1200')).toEqual([0, 2, 3, 6])
    expect(run('after<50')).toEqual([1, 2, 4])
    expect(run('after<=40')).toEqual([1, 2, 4])
    expect(run('saved>1000')).toEqual([2, 6])
    expect(run('tokens=800')).toEqual([4])
  })

  it('accepts k/m suffixes and separators', () => {
    expect(parseNumber('1.5k')).toBe(1500)
    expect(parseNumber('2M')).toBe(2_000_000)
    expect(parseNumber('12,000')).toBe(12000)
    expect(parseNumber('12_000')).toBe(12000)
    expect(parseNumber('abc')).toBeNull()
    expect(run('tokens>=1.2k')).toEqual([0, 2, 3, 6])
  })

  it('field:value is exact for numbers, and a..b is an inclusive range', () => {
    expect(run('turn:3')).toEqual([5, 6])
    expect(run('index:2..4')).toEqual([2, 3, 4])
    expect(run('index:5..')).toEqual([5, 6])
    expect(run('index:..1')).toEqual([0, 1])
    expect(run('-index:1..5')).toEqual([0, 6])
  })
})

describe('parseQuery: regex, words and quotes', () => {
  it('a /regex/ searches reason, strategy, resource, tool and kind', () => {
    expect(run('/stale_result|token_budget/')).toEqual([2, 4])
    expect(run('/^npm/')).toEqual([])
    expect(run('/^npm/m')).toEqual([4])
    expect(run('/BASH/')).toEqual([])
    expect(run('/BASH/i')).toEqual([4])
    expect(run('/a b/')).toEqual([2])
    expect(run('/src\\/c/')).toEqual([3])
  })

  it('a bare word matches any text field (and the id or status)', () => {
    expect(run('grep')).toEqual([3])
    expect(run('system')).toEqual([0])
    expect(run('trimmed')).toEqual([6])
    expect(run('g4')).toEqual([4])
  })

  it('quoted values keep their spaces and escapes', () => {
    expect(run('resource:"src/a b.ts"')).toEqual([2])
    expect(run('"a newer read"')).toEqual([2])
    expect(run('-resource:"src/a b.ts" tool:read')).toEqual([3])
    const parsed = parseQuery('reason:"say \\"hi\\""')
    expect(parsed.ok && parsed.terms[0]).toMatchObject({ type: 'text', value: 'say "hi"' })
  })
})

describe('parseQuery: errors carry a position and never throw', () => {
  it.each([
    ['foo:bar', 0, /unknown field "foo"/],
    ['tool:read status:stubb', 17, /unknown status "stubb"/],
    ['tokens>lots', 7, /tokens needs a number/],
    ['tool>3', 0, /tool is not a number/],
    ['role:"user', 5, /unclosed quote/],
    ['tool:read /abc', 10, /unclosed regular expression/],
    ['/(a/', 0, /invalid regular expression/],
    ['/a/g', 0, /unsupported regex flags "g"/],
    ['//', 0, /empty regular expression/],
    ['tool:', 5, /needs a value/],
    ['tool:read -', 10, /lone "-"/],
    ['index:9..3', 6, /runs backwards/],
    ['index:..', 6, /at least one end/],
    ['"a"b', 3, /expected a space/],
    ['""', 0, /empty quoted word/],
  ])('%s → error at %i', (query, position, message) => {
    const error = errorOf(query)
    expect(error.position).toBe(position)
    expect(error.message).toMatch(message)
  })

  it('a query that does not parse filters nothing', () => {
    expect(filterByQuery(ROWS, parseQuery('foo:bar'))).toHaveLength(ROWS.length)
  })
})

describe('compileQuery', () => {
  it('with no terms matches everything', () => {
    expect(ROWS.every(compileQuery([]))).toBe(true)
  })
})
