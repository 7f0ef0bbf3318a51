import { execFileSync, spawnSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { PRESET_IDS, presetConfig } from '../../config/presets.ts'
import { validateConfig } from '../../config/validate.ts'
import type { CompactionConfig, CompactionConfigInput } from '../../config/schema.ts'
import { STRATEGY_REGISTRY } from '../../engine/strategies/index.ts'
import { adachsoftTarget } from './adachsoft.ts'
import { parsePhpReturnArray } from './adachsoft/php-array.testing.ts'

const hasPhp = spawnSync('php', ['--version']).status === 0
if (!hasPhp) console.warn('php is not installed: skipping `php -l` on the adachsoft export')

function config(input: Partial<CompactionConfigInput>): CompactionConfig {
  const result = validateConfig(
    {
      version: 1,
      window: { contextTokens: 200_000, reservedOutput: 8_192 },
      pipeline: [],
      ...input,
    },
    STRATEGY_REGISTRY,
  )
  if (!result.ok) throw new Error(JSON.stringify(result.issues))
  return result.config
}

const paths = (c: CompactionConfig) => adachsoftTarget.export(c).warnings.map((w) => w.path)

describe('adachsoft export', () => {
  it.each(PRESET_IDS)(
    '%s exports a PHP file: the params array, or null when nothing trims',
    (id) => {
      const config = presetConfig(id)
      const out = adachsoftTarget.export(config)
      expect(out.language).toBe('php')
      expect(out.text.split('\n')[0]).toBe(`<?php // ${out.summary}`)
      const params = parsePhpReturnArray(out.text) as Record<string, unknown> | null
      if (!config.pipeline.some((s) => s.enabled && s.strategy === 'tool-payload-trim')) {
        // Off, like every other target: tool_compaction with any params array would trim.
        expect(params).toBeNull()
        expect(out.summary).toMatch(/tool_compaction is not selected/)
        expect(out.notes).toEqual([])
        return
      }
      expect(Object.keys(params ?? {})).toEqual([
        'inputTrimBytes',
        'outputTrimBytes',
        'excludedTools',
        'toolIdentifierFields',
      ])
    },
  )

  it.skipIf(!hasPhp).each(PRESET_IDS)('%s passes php -l', (id) => {
    const dir = mkdtempSync(join(tmpdir(), 'adachsoft-'))
    const file = join(dir, 'tool-compaction.php')
    writeFileSync(file, adachsoftTarget.export(presetConfig(id)).text)
    expect(() => execFileSync('php', ['-l', file], { stdio: 'pipe' })).not.toThrow()
  })

  it('reproduces its own preset with no warnings and the preset byte limits', () => {
    expect(adachsoftTarget.preset).toBe('adachsoft')
    const out = adachsoftTarget.export(presetConfig('adachsoft'))
    expect(out.warnings).toEqual([])
    expect(parsePhpReturnArray(out.text)).toEqual({
      inputTrimBytes: 100,
      outputTrimBytes: 100,
      excludedTools: [],
      toolIdentifierFields: [],
    })
    // The bug fixes PHP would undo are still said, as notes.
    expect(out.notes.join(' ')).toMatch(/_tool_compaction meta/)
    expect(out.summary).toBe(
      'adachsoft’s agent, on every request, keeps the latest call and result of each tool intact and replaces older top-level argument fields over 100 bytes and result fields over 100 bytes with "[omitted]".',
    )
  })

  it('carries limits, identifier fields and protected tools under adachsoft keys', () => {
    const c = config({
      protections: { tools: ['skill'] },
      pipeline: [
        {
          strategy: 'tool-payload-trim',
          params: {
            inputTrimBytes: 250,
            outputTrimBytes: 4_000,
            excludedTools: ["it's"],
            toolIdentifierFields: { read_file_content: ['path', 'position', 'length'] },
            faithful: true,
          },
        },
      ],
    })
    const out = adachsoftTarget.export(c)
    expect(out.warnings).toEqual([])
    expect(out.notes.join(' ')).not.toMatch(/_tool_compaction meta/)
    expect(parsePhpReturnArray(out.text)).toEqual({
      inputTrimBytes: 250,
      outputTrimBytes: 4_000,
      excludedTools: ["it's", 'skill'],
      toolIdentifierFields: { read_file_content: ['path', 'position', 'length'] },
    })
  })

  it('warns exactly where adachsoft lacks the feature', () => {
    expect(paths(presetConfig('recommended'))).toEqual([
      'fallback',
      'pipeline[0]',
      'pipeline[1]',
      'pipeline[2]',
    ])
    const c = config({
      protections: { recentTurns: 2, pinned: ['m1'] },
      pipeline: [
        {
          strategy: 'tool-payload-trim',
          trigger: { conditions: [{ kind: 'tokens', over: 1000 }] },
          target: { kind: 'tokens', under: 500 },
        },
        { strategy: 'tool-payload-trim', params: { inputTrimBytes: 5 } },
        { strategy: 'sliding-window', enabled: false, params: { keepLastGroups: 3 } },
      ],
    })
    expect(paths(c)).toEqual([
      'protections.recentTurns',
      'protections.pinned',
      'pipeline[0].trigger',
      'pipeline[0].target',
      'pipeline[1]',
    ])
    // The first step wins; the second one's limit is not exported.
    expect(parsePhpReturnArray(adachsoftTarget.export(c).text)).toMatchObject({
      inputTrimBytes: 100,
    })
  })
})

describe('parsePhpReturnArray (test helper)', () => {
  it('reads escapes, nesting and scalars, and rejects malformed arrays', () => {
    const src = "<?php\n// x\nreturn ['a\\'b' => [1, -2.5, true, null], 'c' => 'd\\\\e',];\n"
    expect(parsePhpReturnArray(src)).toEqual({ "a'b": [1, -2.5, true, null], c: 'd\\e' })
    expect(() => parsePhpReturnArray("<?php\nreturn ['a' => 1, 2];")).toThrow(/mixed/)
    expect(() => parsePhpReturnArray("<?php\nreturn ['a' 1];")).toThrow()
    expect(() => parsePhpReturnArray("<?php\nreturn ['a'")).toThrow()
  })
})
