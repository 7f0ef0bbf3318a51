import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { PRESET_IDS, presetConfig } from '../../config/presets.ts'
import { falaiTarget } from './falai.ts'
import { valueAt, variant } from './index.testing.ts'

/** Parse the snippet as TypeScript, then run it to read the exported `compaction` value. */
function compaction(text: string): Record<string, unknown> | undefined {
  const source = ts.createSourceFile('compaction.ts', text, ts.ScriptTarget.ES2022, true)
  const diagnostics = (source as unknown as { parseDiagnostics: readonly ts.Diagnostic[] })
    .parseDiagnostics
  expect(diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))).toEqual([])
  const js = ts.transpileModule(text, {
    reportDiagnostics: true,
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
  })
  expect(js.diagnostics ?? []).toEqual([])
  const exports: Record<string, unknown> = {}
  new Function('exports', js.outputText)(exports)
  expect(Object.keys(exports)).toContain('compaction')
  return exports.compaction as Record<string, unknown> | undefined
}

const paths = (config: Parameters<typeof falaiTarget.export>[0]) =>
  falaiTarget.export(config).warnings.map((w) => w.path)

describe('falai target', () => {
  it.each(PRESET_IDS)('exports preset %s as a TypeScript snippet', (id) => {
    const config = presetConfig(id)
    const out = falaiTarget.export(config)
    expect(out).toMatchObject({
      target: 'falai',
      language: 'typescript',
      fileName: 'compaction.ts',
    })
    const options = compaction(out.text)
    if (options) {
      // falai's validateOptions would throw on anything else.
      expect(options.maxTokens as number).toBeGreaterThan(0)
      expect(options.compactionThreshold as number).toBeGreaterThanOrEqual(0.5)
      expect(options.compactionThreshold as number).toBeLessThanOrEqual(0.95)
      expect(options.preserveRecentCount as number).toBeGreaterThanOrEqual(2)
      expect(options.maxToolResultChars as number).toBeGreaterThan(0)
    }
    for (const w of out.warnings) expect(valueAt(config, w.path), w.path).not.toBeUndefined()
  })

  it('reproduces its own preset with no warnings', () => {
    const out = falaiTarget.export(presetConfig('falai'))
    expect(out.warnings).toEqual([])
    expect(compaction(out.text)).toEqual({
      maxTokens: 100_000,
      compactionThreshold: 0.8,
      preserveRecentCount: 4,
      maxToolResultChars: 5_000,
    })
  })

  it('translates the recommended preset and warns exactly where falai falls short', () => {
    const out = falaiTarget.export(presetConfig('recommended'))
    expect(compaction(out.text)).toEqual({
      maxTokens: 180_000,
      compactionThreshold: 0.85,
      preserveRecentCount: 6,
      maxToolResultChars: Number.MAX_SAFE_INTEGER,
    })
    expect(out.warnings.map((w) => w.path)).toEqual([
      'pipeline[0].strategy',
      'pipeline[1].strategy',
      'pipeline[2].params.preserveRecentGroups',
      'pipeline[2].params.summaryPrefix',
      'pipeline[2].params.role',
      'pipeline[2].params.placement',
      'pipeline[2].params.onFailure',
      'pipeline',
      'protections.tools',
      'fallback',
    ])
    expect(out.warnings.find((w) => w.path === 'pipeline')?.message).toContain('micro_compact')
  })

  it('leaves compaction off when nothing maps', () => {
    const out = falaiTarget.export(presetConfig('lip'))
    expect(compaction(out.text)).toBeUndefined()
    expect(out.warnings.map((w) => w.path)).toEqual(['pipeline[0].strategy'])
  })

  it('warns for missing tiers falai runs anyway', () => {
    const config = variant('falai', (c) => {
      c.pipeline = c.pipeline.slice(0, 1)
    })
    const out = falaiTarget.export(config)
    expect(out.warnings.map((w) => w.path)).toEqual(['pipeline', 'pipeline'])
    expect(out.warnings.map((w) => w.message).join('\n')).toMatch(
      /micro_compact[\s\S]*auto_compact/,
    )
  })

  it('keeps one threshold for all tiers and warns for a tier that differs', () => {
    const config = variant('falai', (c) => {
      c.pipeline[1]!.params = {
        maxTokens: 100_000,
        compactionThreshold: 0.9,
        preserveRecentCount: 4,
      }
    })
    const out = falaiTarget.export(config)
    expect(compaction(out.text)?.compactionThreshold).toBe(0.8)
    expect(out.warnings.map((w) => w.path)).toEqual(['pipeline[1].params.compactionThreshold'])
  })

  it('keeps one preserved tail and warns for a tier that differs', () => {
    const config = variant('falai', (c) => {
      c.pipeline[2]!.params = { maxTokens: 100_000, preserveRecentMessages: 10 }
    })
    expect(paths(config)).toEqual(['pipeline[2].params.preserveRecentMessages'])
  })

  it('folds a pipeline trigger into maxTokens × compactionThreshold', () => {
    const config = variant('falai', (c) => {
      for (const step of c.pipeline)
        step.trigger = { mode: 'any', conditions: [{ kind: 'tokens', over: 90_000 }] }
    })
    const out = falaiTarget.export(config)
    expect(compaction(out.text)).toMatchObject({ maxTokens: 100_000, compactionThreshold: 0.9 })
    // The targets (80k) are now below the 90k threshold: stopping there changes nothing.
    expect(out.warnings).toEqual([])
  })

  it('warns for tiers out of falai’s order', () => {
    const config = variant('falai', (c) => {
      c.pipeline = [c.pipeline[1]!, c.pipeline[0]!, c.pipeline[2]!]
    })
    expect(paths(config)).toEqual(['pipeline[1].strategy'])
  })

  it('warns for an early stop above the threshold, which falai does not have', () => {
    const config = variant('falai', (c) => {
      c.pipeline[0]!.target = { kind: 'tokens', under: 95_000 }
    })
    expect(paths(config)).toEqual(['pipeline[0].target'])
  })

  it('warns for summary settings falai has no option for', () => {
    const config = variant('falai', (c) => {
      c.pipeline[2]!.params = { maxTokens: 100_000, onFailure: 'fail_open', maxOutputTokens: 2048 }
    })
    expect(paths(config)).toEqual([
      'pipeline[2].params.maxOutputTokens',
      'pipeline[2].params.onFailure',
    ])
  })

  it('warns for protections falai cannot honour', () => {
    const config = variant('falai', (c) => {
      c.protections = { recentTurns: 1, pinned: ['x'], tools: ['skill'] }
    })
    expect(paths(config)).toEqual([
      'protections.recentTurns',
      'protections.pinned',
      'protections.tools',
    ])
  })

  it('types the options as AgentCompactionConfig and lets the agent pass its own provider', () => {
    const out = falaiTarget.export(presetConfig('falai'))
    expect(out.text.split('\n')[0]).toBe(`// ${out.summary}`)
    expect(out.text).toContain('export const compaction: AgentCompactionConfig = {')
    // AgentCompactionConfig has no provider: `{ ...compaction, provider }` fails to compile (TS2353).
    expect(out.text).toContain('// const agent = new Agent({ name, provider, compaction })')
    expect(out.text).not.toMatch(/provider:|\.\.\.compaction/)
    expect(out.notes.join(' ')).not.toMatch(/Add `provider`/)
    expect(out.summary).toBe(
      '@falai/agent, once its chars/4 estimate reaches 80,000 tokens (maxTokens 100,000 × 0.8), keeps the last 4 messages as they are and truncates older tool results over 5,000 characters, then collapses the whitespace of older tool results, then summarises everything before them with the agent’s own provider (dropping the oldest messages if that fails), stopping at the first tier that gets it under 80,000.',
    )
  })
})
