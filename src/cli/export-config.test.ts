import { spawnSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { serializeConfig } from '../config/load.ts'
import { presetConfig, type PresetId } from '../config/presets.ts'
import { EXPORT_TARGETS, exportTarget } from '../export/targets/index.ts'
import type { TargetOutput } from '../export/targets/types.ts'
import { main } from './main.ts'

function capture() {
  const out: string[] = []
  const err: string[] = []
  return {
    io: { stdout: (t: string) => out.push(t), stderr: (t: string) => err.push(t) },
    out,
    err,
  }
}

const dir = mkdtempSync(join(tmpdir(), 'cl-export-'))
function file(name: string, text: string): string {
  const path = join(dir, name)
  writeFileSync(path, text)
  return path
}
const presetFile = (id: PresetId) => file(`${id}.json`, serializeConfig(presetConfig(id)))

/** Throws unless `text` parses as `language`. */
function parses(text: string, language: TargetOutput['language']): void {
  switch (language) {
    case 'yaml':
      parse(text)
      return
    case 'json':
      JSON.parse(text)
      return
    case 'jsonc':
      // opencode.json: one `//` summary line, then JSON.
      expect(text).toMatch(/^\/\/ .+\n\{/)
      JSON.parse(text.slice(text.indexOf('\n') + 1))
      return
    case 'text':
      expect(text).toMatch(/^Nothing to send: /)
      return
    case 'typescript': {
      const sf = ts.createSourceFile('x.ts', text, ts.ScriptTarget.ES2022)
      const diags = (sf as unknown as { parseDiagnostics: readonly unknown[] }).parseDiagnostics
      expect(diags).toEqual([])
      return
    }
    case 'python':
    case 'php':
      // Their own target tests compile them with python3 / php when installed.
      expect(text.trim().length).toBeGreaterThan(0)
      return
  }
}

const errLines = (err: readonly string[]) => err.join('').split('\n').filter(Boolean)

describe('compaction-lab export-config --target', () => {
  it.each(EXPORT_TARGETS.map((t) => [t.id, t.preset] as const))(
    '--target %s prints its text on stdout and no warning for its own preset (%s)',
    async (id, preset) => {
      const c = capture()
      expect(
        await main(['export-config', presetFile(preset as PresetId), '--target', id], c.io),
      ).toBe(0)
      const expected = exportTarget(id, presetConfig(preset as PresetId))
      expect(c.out.join('')).toBe(
        expected.text.endsWith('\n') ? expected.text : `${expected.text}\n`,
      )
      parses(c.out.join(''), expected.language)
      // What the target does, then only notes: no lossy warning for its own preset.
      const [does, ...rest] = errLines(c.err)
      expect(does).toBe(`does: ${expected.summary}`)
      for (const line of rest) expect(line).toMatch(/^note: /)
    },
  )

  it('prints every lossy warning on stderr as "path: message — instead", exit 0', async () => {
    const c = capture()
    expect(
      await main(['export-config', presetFile('recommended'), '--target', 'anthropic'], c.io),
    ).toBe(0)
    const expected = exportTarget('anthropic', presetConfig('recommended'))
    expect(expected.warnings.length).toBeGreaterThan(0)
    const lines = errLines(c.err)
    expect(lines.filter((l) => !l.startsWith('note: ') && !l.startsWith('does: '))).toEqual(
      expected.warnings.map((w) => `${w.path}: ${w.message} — ${w.instead}`),
    )
    expect(lines).toContain(`note: ${expected.notes[0]}`)
    expect(lines[0]).toBe(`does: ${expected.summary}`)
    expect(lines[1]).toMatch(/^pipeline\[0\]\.strategy: .+ — .+/)
    // stdout is the fragment alone, parseable as is.
    expect(JSON.parse(c.out.join(''))).toHaveProperty('context_management.edits')
  })

  it('translates the lip preset into LIP’s YAML keys', async () => {
    const c = capture()
    expect(await main(['export-config', presetFile('lip'), '--target', 'lip'], c.io)).toBe(0)
    const doc = parse(c.out.join('')) as { compaction: Record<string, unknown> }
    expect(doc.compaction).toMatchObject({
      enabled: true,
      token_threshold: 100_000,
      denied_tool_categories: ['file_write', 'command_execution'],
    })
  })

  it('keeps our own format as the default target', async () => {
    const c = capture()
    expect(await main(['export-config', presetFile('opencode')], c.io)).toBe(0)
    expect(JSON.parse(c.out.join(''))).toMatchObject({ version: 1, name: 'opencode' })
    expect(c.err).toEqual([])
  })

  it('exits 1 for an invalid config, naming where', async () => {
    const c = capture()
    const bad = { ...presetConfig('lip'), window: { contextTokens: -1, reservedOutput: 0 } }
    expect(
      await main(['export-config', file('bad.json', JSON.stringify(bad)), '--target', 'lip'], c.io),
    ).toBe(1)
    expect(c.err.join('')).toMatch(/window\.contextTokens/)
    expect(c.out).toEqual([])
    const broken = capture()
    expect(
      await main(
        ['export-config', file('broken.json', '{\n  "version": 1,\n'), '--target', 'falai'],
        broken.io,
      ),
    ).toBe(1)
    expect(broken.err.join('')).toMatch(/line \d+, offset \d+/)
  })

  it('exits 2 for an unknown target or a missing file argument', async () => {
    const c = capture()
    expect(await main(['export-config', presetFile('lip'), '--target', 'cursor'], c.io)).toBe(2)
    expect(c.err.join('')).toMatch(/unknown --target cursor; one of: compaction-lab, lip, opencode/)
    expect(await main(['export-config', '--target', 'lip'], capture().io)).toBe(2)
    expect(await main(['export-config', presetFile('lip'), '--target'], capture().io)).toBe(2)
  })

  it('separates stdout and stderr in the real binary', () => {
    const bin = join(__dirname, '../../bin/compaction-lab.mjs')
    const res = spawnSync(
      process.execPath,
      [bin, 'export-config', presetFile('recommended'), '--target', 'opencode'],
      { encoding: 'utf8' },
    )
    expect(res.status).toBe(0)
    const [comment, ...json] = res.stdout.split('\n')
    expect(comment).toMatch(/^\/\/ opencode summarises/)
    expect(JSON.parse(json.join('\n'))).toMatchObject({ compaction: { auto: true, prune: false } })
    expect(res.stderr).toMatch(/^does: opencode summarises/)
    expect(res.stderr).toMatch(/^pipeline\[0\]\.strategy: /m)
  })
})
