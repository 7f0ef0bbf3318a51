import { createHash } from 'node:crypto'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { payloadSize, planCompaction } from './tool-payload-trim/compact.ts'
import { groupKey, identifierKey } from './tool-payload-trim/keys.ts'
import { phpFloatToString, phpJsonFloat } from './tool-payload-trim/php-number.ts'
import {
  isList,
  phpJsonDecode,
  phpJsonEncode,
  phpKey,
  type PhpArray,
  type PhpValue,
} from './tool-payload-trim/php-json.ts'
import { sha256, utf8Length } from './tool-payload-trim/sha256.ts'

const nodeSha = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex')
const decode = (text: string): PhpValue => {
  const d = phpJsonDecode(text)
  if (!d.ok) throw new Error(d.error)
  return d.value
}
/** decode → encode, i.e. what `json_encode(json_decode($text, true))` prints. */
const roundTrip = (text: string) => phpJsonEncode(decode(text))

describe('sha256 (pure TS)', () => {
  it.each([
    ['', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
    ['abc', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
    [
      'abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq',
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    ],
    [
      'abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu',
      'cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1',
    ],
  ])('FIPS 180-4 vector %j', (input, hex) => {
    expect(sha256(input)).toBe(hex)
  })

  it('one million "a" (multi-block)', () => {
    expect(sha256('a'.repeat(1_000_000))).toBe(
      'cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0',
    )
  })

  it('padding boundaries 0..130 bytes match node:crypto', () => {
    for (let n = 0; n <= 130; n++) expect(sha256('q'.repeat(n))).toBe(nodeSha('q'.repeat(n)))
  })

  it('any well-formed string (UTF-8, astral) matches node:crypto, and utf8Length matches Buffer', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 300 }), (s) => {
        expect(sha256(s)).toBe(nodeSha(s))
        expect(utf8Length(s)).toBe(Buffer.byteLength(s, 'utf8'))
      }),
      { numRuns: 300 },
    )
  })
})

describe('PHP json_encode (default flags)', () => {
  it('escapes "/" as "\\/" and non-ASCII as lowercase \\uXXXX, astral as a surrogate pair', () => {
    expect(phpJsonEncode('a/b')).toBe('"a\\/b"')
    expect(phpJsonEncode('é—ü')).toBe('"\\u00e9\\u2014\\u00fc"')
    expect(phpJsonEncode('😀')).toBe('"\\ud83d\\ude00"')
    expect(phpJsonEncode('"\\\b\f\n\r\t\u0001\u001f\u007f')).toBe(
      '"\\"\\\\\\b\\f\\n\\r\\t\\u0001\\u001f\u007f"',
    )
    expect(phpJsonEncode("<a href='x'>&amp;</a>")).toBe('"<a href=\'x\'>&amp;<\\/a>"')
  })

  it('fails (false in PHP) on invalid UTF-8 — a lone surrogate', () => {
    expect(phpJsonEncode('\ud800x')).toBeNull()
    expect(phpJsonEncode('x\udc00')).toBeNull()
  })

  it('matches JSON.stringify for ASCII strings once "/" is escaped (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary-ascii' }), (s) => {
        expect(phpJsonEncode(s)).toBe(JSON.stringify(s).replace(/\//g, '\\/'))
      }),
    )
  })

  it('arrays: empty → [], sequential 0..n-1 → list, anything else → object, key order kept', () => {
    expect(roundTrip('{}')).toBe('[]')
    expect(roundTrip('[]')).toBe('[]')
    expect(roundTrip('{"0":"a","1":"b"}')).toBe('["a","b"]')
    expect(roundTrip('{"1":"a","0":"b"}')).toBe('{"1":"a","0":"b"}')
    expect(roundTrip('{"b":1,"a":2,"10":3}')).toBe('{"b":1,"a":2,"10":3}')
    expect(roundTrip('{"a":1,"a":2,"b":3}')).toBe('{"a":2,"b":3}')
    expect(roundTrip(' { "x" : [ 1 , { } , [ ] ] } ')).toBe('{"x":[1,[],[]]}')
  })

  it('numbers: ints stay ints, floats print with serialize_precision -1 (no ".0", "1.0e+25")', () => {
    expect(roundTrip('[6000,-0,0,-12]')).toBe('[6000,0,0,-12]')
    expect(roundTrip('[1.0,10.0,-0.0,0.1,1.5,0.30000000000000004]')).toBe(
      '[1,10,-0,0.1,1.5,0.30000000000000004]',
    )
    expect(roundTrip('[1e25,1E3,1.5e-7,0.0001,0.00001,1e16,1e17,123456789012345678]')).toBe(
      '[1.0e+25,1000,1.5e-7,0.0001,1.0e-5,10000000000000000,1.0e+17,123456789012345678]',
    )
    // beyond int64 an integer literal becomes a float
    expect(roundTrip('[9223372036854775807,9223372036854775808]')).toBe(
      '[9223372036854775807,9.223372036854776e+18]',
    )
    expect(phpJsonEncode({ kind: 'float', value: Infinity })).toBeNull()
  })

  it('(string) $float for PayloadSizer: precision 14, "E"', () => {
    expect(phpFloatToString(1)).toBe('1')
    expect(phpFloatToString(0.1 + 0.2)).toBe('0.3')
    expect(phpFloatToString(1e15)).toBe('1.0E+15')
    expect(phpFloatToString(1e14)).toBe('1.0E+14')
    expect(phpFloatToString(1e13)).toBe('10000000000000')
    expect(phpFloatToString(-1.5e-7)).toBe('-1.5E-7')
    expect(phpFloatToString(123456.789)).toBe('123456.789')
    expect(phpFloatToString(Infinity)).toBe('INF')
    expect(phpJsonFloat(1 / 3)).toBe('0.3333333333333333')
  })
})

describe('PHP json_decode($text, true)', () => {
  it('decimal-integer string keys become int keys ("-0", "01" stay strings)', () => {
    expect(phpKey('12')).toBe(12n)
    expect(phpKey('-3')).toBe(-3n)
    expect(phpKey('01')).toBe('01')
    expect(phpKey('-0')).toBe('-0')
    expect(phpKey('9223372036854775808')).toBe('9223372036854775808')
    expect(isList(decode('{"0":1,"1":2}') as PhpArray)).toBe(true)
  })

  it.each([
    ['', 'empty'],
    ['{"a":1,}', 'trailing comma'],
    ['[01]', 'leading zero'],
    ['"\\ud800"', 'escaped lone surrogate'],
    ['"\ud800"', 'raw lone surrogate'],
    ['"a\u0001"', 'raw control character'],
    ["{'a':1}", 'single quotes'],
    ['[1] x', 'trailing garbage'],
  ])('rejects %j (%s) like PHP', (text) => {
    expect(phpJsonDecode(text).ok).toBe(false)
  })

  it('decodes escapes and surrogate pairs; nests up to depth 512, not 513', () => {
    expect(decode('"\\u00e9\\/\\ud83d\\ude00\\n"')).toBe('é/😀\n')
    expect(phpJsonDecode(`${'['.repeat(512)}${']'.repeat(512)}`).ok).toBe(true)
    expect(phpJsonDecode(`${'['.repeat(513)}${']'.repeat(513)}`).ok).toBe(false)
    expect(phpJsonDecode('['.repeat(100_000)).ok).toBe(false)
  })

  it('round-trips arbitrary JSON like PHP would (ASCII-safe, same data)', () => {
    fc.assert(
      fc.property(fc.json(), (text) => {
        const out = roundTrip(text)
        if (out === null) return // lone surrogates from fc.json: PHP fails too
        expect(/^[\x20-\x7e]*$/.test(out)).toBe(true)
      }),
    )
  })
})

describe('PayloadSizer and PayloadCompactor', () => {
  it('sizes: strlen for strings, (string) for scalars, strlen(json_encode) for arrays', () => {
    expect(payloadSize('héllo')).toBe(6)
    expect(payloadSize(null)).toBe(0)
    expect(payloadSize(false)).toBe(0)
    expect(payloadSize(true)).toBe(1)
    expect(payloadSize({ kind: 'int', value: -6000n })).toBe(5)
    expect(payloadSize({ kind: 'float', value: 1e15 })).toBe(7) // "1.0E+15"
    expect(payloadSize(decode('["a/b","é"]'))).toBe('["a\\/b","\\u00e9"]'.length)
  })

  it('only fields strictly over the threshold (and > 0) are omitted; identifiers never', () => {
    const args = decode('{"path":"x/y/z/w","body":"12345678901","n":12345678901,"ok":true}')
    const plan = planCompaction(args as PhpArray, {
      thresholdBytes: 10,
      identifierFields: ['path'],
      skipCompacted: true,
    })
    expect(plan.omitted).toEqual([
      { key: 'body', bytes: 11, sha256: nodeSha('"12345678901"') },
      { key: 'n', bytes: 11, sha256: nodeSha('12345678901') },
    ])
    expect(plan.kept.map((k) => [k.key, k.why])).toEqual([
      ['path', 'identifier'],
      ['ok', 'small'],
    ])
    const zero = planCompaction(decode('{"a":"","b":false}') as PhpArray, {
      thresholdBytes: 0,
      identifierFields: [],
      skipCompacted: true,
    })
    expect(zero.omitted).toEqual([])
  })

  it('group keys: {tool}|json_encode of the configured fields in config order, missing → null', () => {
    const args = decode('{"length":6000,"path":"src/A.php","position":0}') as PhpArray
    expect(groupKey('read_file_content', args, ['path', 'position', 'length'])).toBe(
      'read_file_content|{"path":"src\\/A.php","position":0,"length":6000}',
    )
    expect(identifierKey(args, ['path', 'missing'])).toBe('{"path":"src\\/A.php","missing":null}')
    expect(identifierKey(args, [])).toBe('__tool_only__')
    expect(identifierKey(null, ['path'])).toBe('{"path":null}')
    // 0 and "0" are different operations
    expect(identifierKey(decode('{"p":0}') as PhpArray, ['p'])).not.toBe(
      identifierKey(decode('{"p":"0"}') as PhpArray, ['p']),
    )
  })
})
