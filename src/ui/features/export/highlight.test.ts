import { describe, expect, it } from 'vitest'
import type { ExportLanguage } from '../../../store/index.ts'
import { previewText, tokenize, type Token, type TokenKind } from './highlight.ts'

const kinds = (tokens: readonly Token[], kind: TokenKind) =>
  tokens.filter((t) => t.kind === kind).map((t) => t.text)

const SAMPLES: Record<ExportLanguage, string> = {
  json: '{\n  "window": { "contextTokens": 200000, "auto": true },\n  "name": "a \\"b\\""\n}\n',
  jsonc: '// opencode never compacts.\n{\n  "compaction": { "auto": false, "prune": false }\n}\n',
  jsonl: '{"type":"user","n":1}\n{"type":"assistant","ok":null}\n',
  yaml: '# proxy\ncompaction:\n  enabled: true\n  categories:\n    - list_dir\n  keep: 3\n  "odd key": \'x\'\n',
  typescript:
    "// generated\nimport { Agent } from '@falai/agent'\nexport const compaction = { keepLast: 4, name: `x` }\n",
  python: '# generated\nfrom agent_framework import X\nstrategy = X(keep_last=4, name="a")\n',
  php: "<?php\nreturn [\n    'keep' => 4,\n    'name' => 'x', // note\n];\n",
  csv: 'index,kind,reason\r\n0,stub,"a, b"\r\n',
  markdown: '# Title\n\n> quote\nsome `code` here\n',
  text: 'Nothing to send: no step maps.\n',
}

describe('tokenize', () => {
  it('gives the text back exactly, for every language', () => {
    for (const [language, text] of Object.entries(SAMPLES) as [ExportLanguage, string][]) {
      expect(
        tokenize(text, language)
          .map((t) => t.text)
          .join(''),
        language,
      ).toBe(text)
    }
  })

  it('tells JSON keys from string values', () => {
    const t = tokenize(SAMPLES.json, 'json')
    expect(kinds(t, 'key')).toEqual(['"window"', '"contextTokens"', '"auto"', '"name"'])
    expect(kinds(t, 'string')).toEqual(['"a \\"b\\""'])
    expect(kinds(t, 'number')).toEqual(['200000'])
    expect(kinds(t, 'keyword')).toEqual(['true'])
  })

  it('reads a JSONC comment line before the JSON, and leaves plain text plain', () => {
    const t = tokenize(SAMPLES.jsonc, 'jsonc')
    expect(kinds(t, 'comment')).toEqual(['// opencode never compacts.'])
    expect(kinds(t, 'key')).toEqual(['"compaction"', '"auto"', '"prune"'])
    expect(tokenize(SAMPLES.text, 'text').every((x) => x.kind === 'plain')).toBe(true)
  })

  it('finds YAML keys only at the start of a line, and comments', () => {
    const t = tokenize(SAMPLES.yaml, 'yaml')
    expect(kinds(t, 'key')).toEqual(['compaction', 'enabled', 'categories', 'keep', '"odd key"'])
    expect(kinds(t, 'comment')).toEqual(['# proxy'])
    expect(kinds(t, 'string')).toEqual(["'x'"])
  })

  it('marks TS keywords, object keys and strings, never inside identifiers', () => {
    const t = tokenize(SAMPLES.typescript, 'typescript')
    expect(kinds(t, 'keyword')).toEqual(['import', 'from', 'export', 'const'])
    expect(kinds(t, 'key')).toEqual(['keepLast', 'name'])
    expect(kinds(t, 'string')).toEqual(["'@falai/agent'", '`x`'])
    expect(kinds(tokenize('const imported = 1', 'typescript'), 'keyword')).toEqual(['const'])
  })

  it('marks Python keyword arguments and PHP array keys', () => {
    expect(kinds(tokenize(SAMPLES.python, 'python'), 'key')).toEqual([
      'strategy',
      'keep_last',
      'name',
    ])
    const php = tokenize(SAMPLES.php, 'php')
    expect(kinds(php, 'key')).toEqual(["'keep'", "'name'"])
    expect(kinds(php, 'comment')).toEqual(['// note'])
    expect(php[0]).toEqual({ kind: 'keyword', text: '<?php' })
  })

  it('marks the CSV header row and quoted fields', () => {
    const t = tokenize(SAMPLES.csv, 'csv')
    expect(t[0]).toEqual({ kind: 'key', text: 'index,kind,reason' })
    expect(kinds(t, 'string')).toEqual(['"a, b"'])
  })

  it('survives unterminated strings and comments', () => {
    for (const text of ['{"a', "x = '", '/* open', '"""never']) {
      for (const language of ['json', 'typescript', 'python', 'php'] as const) {
        expect(
          tokenize(text, language)
            .map((t) => t.text)
            .join(''),
        ).toBe(text)
      }
    }
  })
})

describe('previewText', () => {
  it('cuts at a line end before the limit', () => {
    const text = 'aaaa\nbbbb\ncccc\n'
    expect(previewText(text, 100)).toEqual({ text, cut: false })
    expect(previewText(text, 12)).toEqual({ text: 'aaaa\nbbbb\n', cut: true })
  })
})
