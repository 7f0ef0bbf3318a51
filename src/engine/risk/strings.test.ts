import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { extractPhrases, normalizeText } from './phrases.ts'
import { coverKeys, extractKeys, isEvidenceKey, wantedKeys } from './strings.ts'

const keys = (text: string) => [...extractKeys(text)].filter(isEvidenceKey).sort()

describe('distinctive strings', () => {
  it('finds paths, their basenames and line numbers', () => {
    expect(keys('see src/config/parse.ts:212:5 and ./lib/a.py')).toEqual(
      ['a.py', 'lib/a.py', 'line 212', 'parse.ts', 'src/config/parse.ts'].sort(),
    )
  })

  it('finds code identifiers of every shape', () => {
    expect(keys('parse_config parseConfig ConfigParser HTTPServer MAX_RETRIES a3f9c2d1')).toEqual(
      [
        'ConfigParser',
        'HTTPServer',
        'MAX_RETRIES',
        'a3f9c2d1',
        'parseConfig',
        'parse_config',
      ].sort(),
    )
    expect(keys('self.cache_dir = settings.cache_ttl')).toEqual(
      ['cache_dir', 'cache_ttl', 'settings.cache_ttl'].sort(),
    )
  })

  it('ignores common words, standard names and everyday shapes', () => {
    const text =
      'The configuration is well-known, state-of-the-art and/or I/O, e.g. i.e. console.log ' +
      'JSON.stringify useState TypeError package.json __init__ utf8 sha256 TODO README'
    expect(keys(text)).toEqual([])
  })

  it('keeps distinctive numbers and numbers with units, not round or familiar ones', () => {
    expect(keys('took 184ms, 12 MB, 87% on port 8080, 1,234,567 rows, 1842ms')).toEqual(
      // the number of a number-with-unit counts on its own too (evidence keeps the longer one)
      ['12mb', '1234567', '184ms', '1842', '1842ms', '8080', '87%'].sort(),
    )
    // three-digit bare numbers collide by chance; they need a unit or a `line`
    expect(keys('200 OK in 2024, 1024 bytes, 100%, 250ms, 5s, 10 tests, 404, 520')).toEqual([])
  })

  it('splits ids out of URL-less paths and keeps URLs with a path', () => {
    expect(keys('/orders/c0a8e9f2-4b1d-4e7a-9f3c-2d8b7e6a1f00/cancel')).toContain(
      'c0a8e9f2-4b1d-4e7a-9f3c-2d8b7e6a1f00',
    )
    expect(keys('https://docs.example.dev/api/v2 and https://example.com/')).toEqual([
      'https://docs.example.dev/api/v2',
    ])
  })

  it('a path is covered by its basename', () => {
    expect(coverKeys('src/config/parse.ts')).toEqual(['src/config/parse.ts', 'parse.ts'])
    expect(coverKeys('parse_config')).toEqual(['parse_config'])
    // a stoplisted basename is still indexed, for coverage, but is never evidence
    expect(extractKeys('src/index.ts').has('index.ts')).toBe(true)
    expect(isEvidenceKey('index.ts')).toBe(false)
  })
})

describe('phrases', () => {
  it('takes quoted phrases and error messages with their first clause', () => {
    const found = extractPhrases(
      'he said "the quick brown fox jumps"\nError: connect ECONNREFUSED 10.0.3.7:5432 - connection refused',
    ).map((p) => p.key)
    expect(found).toContain('the quick brown fox jumps')
    expect(found).toContain('connect econnrefused 10.0.3.7 5432 connection refused')
    expect(found).toContain('connect econnrefused 10.0.3.7 5432')
  })

  it('skips short quotes, apostrophes and phrases of stop words', () => {
    expect(extractPhrases("it's 'not found' and don't 'do it now'")).toEqual([])
  })

  it('normalises case and punctuation, keeping word boundaries', () => {
    expect(normalizeText('Cannot open `Config.yaml`: permission denied.')).toBe(
      ' cannot open config.yaml permission denied ',
    )
  })
})

describe('extracting only wanted keys', () => {
  it('finds exactly the wanted keys a full extraction finds (property)', () => {
    const atoms = [
      'src/a/parse.ts:212:5',
      './lib/b_c.py',
      'parse_config',
      'self.cache_dir',
      '1,234,567',
      'v1.2.3',
      '184ms',
      '45 ms',
      'line 77',
      'https://x.dev/a/b',
      'abc123de',
      '--dry-run-now',
      'issue-13-risk',
      'ConfigParser',
      'word',
      'the',
      'a.b',
      '(x)',
      ',',
      '"',
      '\n',
      ' ',
      'L212',
      'user@mail.example',
      '/orders/c0a8e9f2-4b1d-4e7a-9f3c-2d8b7e6a1f00/cancel',
      'index.ts',
    ]
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...atoms), { maxLength: 30 }),
        fc.array(fc.constantFrom(...atoms), { maxLength: 8 }),
        (textAtoms, wantedAtoms) => {
          const text = textAtoms.join(' ')
          const wanted = extractKeys(wantedAtoms.join(' '))
          const full = [...extractKeys(text)].filter((k) => wanted.has(k)).sort()
          const only = [...extractKeys(text, new Set(), wantedKeys(wanted))]
          expect(only.sort()).toEqual(full)
        },
      ),
      { numRuns: 300 },
    )
  })
})
