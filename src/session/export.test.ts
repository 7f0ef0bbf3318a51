import { describe, expect, it } from 'vitest'
import { parse as parseYaml } from 'yaml'
import { estimateCounter } from '../engine/tokens/index.ts'
import { importTranscript } from '../formats/index.ts'
import { EXPORT_TARGETS } from '../export/targets/index.ts'
import {
  exportConfigFile,
  exportReportFile,
  exportTranscriptFile,
  fileStem,
  importConfigText,
} from './export.ts'
import { PreparedCache, resolveConfig, runSummary, type RunRecord } from './run.ts'
import { readingConversation, SUPERSEDE } from './test-conversation.ts'

async function record(): Promise<RunRecord> {
  const outcome = await runSummary(readingConversation(), estimateCounter, SUPERSEDE, {
    cache: new PreparedCache(),
  })
  if (outcome.kind !== 'ran') throw new Error(`expected a run, got ${outcome.kind}`)
  return outcome.record
}

describe('exportConfigFile', () => {
  it('writes our versioned JSON with $schema and version first', () => {
    const out = exportConfigFile(SUPERSEDE, undefined, 'compaction-lab')
    if (out.kind !== 'exported') throw new Error('expected a file')
    expect(out.file.language).toBe('json')
    expect(out.file.fileName).toBe('custom.compaction-lab.json')
    const parsed = JSON.parse(out.file.text) as Record<string, unknown>
    expect(Object.keys(parsed).slice(0, 3)).toEqual(['$schema', 'version', 'exporter'])
    expect(parsed.$schema).toBe('/schema/config-v1.json')
    expect(parsed.window).toMatchObject({ contextTokens: 20_000, reservedOutput: 100 })
  })

  it('exports a preset by id to its own system without warnings', () => {
    for (const target of EXPORT_TARGETS) {
      const out = exportConfigFile(null, target.preset, target.id)
      if (out.kind !== 'exported') throw new Error(`${target.id}: ${JSON.stringify(out)}`)
      expect(out.file.warnings, target.id).toEqual([])
      expect(out.file.text.length).toBeGreaterThan(0)
      expect(out.file.mediaType).not.toBe('')
    }
  })

  it('translates a custom config with the lossy warnings of the target', () => {
    const lip = exportConfigFile(null, 'recommended', 'lip')
    if (lip.kind !== 'exported') throw new Error('expected a file')
    expect(lip.file.language).toBe('yaml')
    expect(parseYaml(lip.file.text)).toBeTypeOf('object')
    const out = exportConfigFile(SUPERSEDE, undefined, 'opencode')
    if (out.kind !== 'exported') throw new Error('expected a file')
    expect(out.file.language).toBe('jsonc')
    expect(out.file.summary).toMatch(/^opencode /)
    expect(out.file.text.split('\n')[0]).toBe(`// ${out.file.summary}`)
    expect(JSON.parse(out.file.text.slice(out.file.text.indexOf('\n') + 1))).toBeTypeOf('object')
    expect(out.file.warnings.length).toBeGreaterThan(0)
    for (const w of out.file.warnings) {
      expect(w.path).not.toBe('')
      expect(w.instead).not.toBe('')
    }
  })

  it('reports an invalid config with the path of the problem', () => {
    const bad = { ...SUPERSEDE, window: { contextTokens: -5, reservedOutput: 100 } }
    const out = exportConfigFile(bad, undefined, 'opencode')
    expect(out.kind).toBe('invalid')
    if (out.kind === 'invalid')
      expect(out.issues.map((i) => i.path)).toContain('window.contextTokens')
    expect(exportConfigFile(null, 'no-such-preset', 'lip')).toMatchObject({ kind: 'invalid' })
  })
})

describe('exportTranscriptFile', () => {
  it('writes the projection in the source format, and it imports back', async () => {
    const rec = await record()
    const file = exportTranscriptFile(rec, 'chat.json')
    expect(file.fileName).toBe('chat.compacted.json')
    expect(file.language).toBe('json')
    const { result } = importTranscript(file.text, { fileName: file.fileName })
    if (!result.ok) throw new Error(result.error.message)
    expect(result.conversation.messages.length).toBe(rec.result.projection.messages.length)
    // Two superseded reads were stubbed: their file contents are gone from the export.
    expect(file.text.split('// version 1').length).toBe(1)
    expect(file.text).toContain('// version 3')
  })
})

describe('exportReportFile', () => {
  it('writes the CLI report as JSON and the decisions as CSV with a header row', async () => {
    const rec = await record()
    const json = exportReportFile(rec, 'json', { sourceFile: 'chat.json', preset: undefined })
    expect(json.fileName).toBe('chat.report.json')
    const report = JSON.parse(json.text) as { file: string; decisions: unknown[] }
    expect(report.file).toBe('chat.json')
    expect(report.decisions.length).toBe(rec.result.decisions.length)

    const csv = exportReportFile(rec, 'csv', {})
    expect(csv.fileName).toBe('transcript.decisions.csv')
    const lines = csv.text.trimEnd().split('\r\n')
    expect(lines[0]).toMatch(/^index,kind,strategy,/)
    expect(lines.length).toBe(rec.result.decisions.length + 1)
  })

  it('writes the chosen CSV columns in the order given', async () => {
    const csv = exportReportFile(await record(), 'csv', {}, ['reason', 'saved', 'round'])
    expect(csv.text.split('\r\n')[0]).toBe('reason,saved,round')
    expect(csv.notes.join(' ')).toContain('columns reason, saved, round')
  })
})

describe('importConfigText', () => {
  it('returns the validated config with defaults filled', () => {
    const out = importConfigText(JSON.stringify(SUPERSEDE))
    if (out.kind !== 'imported') throw new Error(JSON.stringify(out))
    expect(out.config).toMatchObject({
      version: 1,
      name: 'custom',
      window: { contextTokens: 20_000 },
    })
    expect(Object.keys(out.config as object)[0]).toBe('$schema')
  })

  it('names the path of every problem, and the line of a JSON syntax error', () => {
    const bad = importConfigText(
      JSON.stringify({ ...SUPERSEDE, pipeline: [{ strategy: 'nope', params: {} }] }),
    )
    expect(bad.kind).toBe('invalid')
    if (bad.kind === 'invalid') expect(bad.issues[0]?.path).toMatch(/^pipeline\[0\]/)
    const syntax = importConfigText('{\n  "version": 1,\n  oops\n}')
    if (syntax.kind !== 'invalid') throw new Error('expected issues')
    expect(syntax.issues[0]?.path).toMatch(/^line 3/)
    expect(importConfigText('{"name":"x"}')).toMatchObject({
      kind: 'invalid',
      issues: [{ path: 'version' }],
    })
  })
})

describe('misspelled config keys, in the app as in the CLI (issue 10)', () => {
  const misspelled = { ...SUPERSEDE, protections: { recentTurn: 4 } }
  const expected = {
    path: 'protections.recentTurn',
    message: 'unknown key "recentTurn"; did you mean `recentTurns`?',
  }

  it('config import refuses them with the nearest valid key', () => {
    expect(importConfigText(JSON.stringify(misspelled))).toEqual({
      kind: 'invalid',
      issues: [expected],
    })
  })

  it('the JSON editor (text) and the form editor (object) refuse them too', () => {
    expect(resolveConfig(JSON.stringify(misspelled), undefined)).toEqual({
      ok: false,
      issues: [expected],
    })
    expect(resolveConfig(misspelled, undefined)).toEqual({ ok: false, issues: [expected] })
  })
})

describe('fileStem', () => {
  it('keeps a safe base name', () => {
    expect(fileStem('dir/coding-session.jsonl', 'x')).toBe('coding-session')
    expect(fileStem('my config!', 'x')).toBe('my-config')
    expect(fileStem(undefined, 'x')).toBe('x')
    expect(fileStem('...', 'x')).toBe('x')
  })
})
