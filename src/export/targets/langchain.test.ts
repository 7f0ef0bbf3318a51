import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { PRESET_IDS, presetConfig } from '../../config/presets.ts'
import type { CompactionConfig, CompactionConfigInput } from '../../config/schema.ts'
import { validateConfig } from '../../config/validate.ts'
import { STRATEGY_REGISTRY } from '../../engine/strategies/index.ts'
import { langchainTarget } from './langchain.ts'

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

interface Middleware {
  readonly kind: string
  readonly options: Record<string, unknown>
}

/**
 * Runs the snippet with `langchain` stubbed, so tests see the option objects LangChain would get.
 * `summaryModel` stays a string.
 */
function middlewareOf(text: string): Middleware[] {
  const js = ts.transpileModule(text, {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
  }).outputText
  const langchain = {
    ClearToolUsesEdit: class {
      readonly options: Record<string, unknown>
      constructor(options: Record<string, unknown>) {
        this.options = options
      }
    },
    contextEditingMiddleware: (o: Record<string, unknown>) => ({
      kind: 'contextEditing',
      options: o,
    }),
    summarizationMiddleware: (o: Record<string, unknown>) => ({
      kind: 'summarization',
      options: o,
    }),
  }
  const exports: { compactionMiddleware?: Middleware[] } = {}
  const require = (name: string) => {
    if (name !== 'langchain') throw new Error(`unexpected import ${name}`)
    return langchain
  }
  new Function('require', 'exports', js)(require, exports)
  return exports.compactionMiddleware ?? []
}

const edits = (m: Middleware[]) =>
  (m.find((x) => x.kind === 'contextEditing')?.options.edits as { options: object }[]).map(
    (e) => e.options,
  )
const paths = (c: CompactionConfig) => langchainTarget.export(c).warnings.map((w) => w.path)

describe('LangChain export', () => {
  it.each(PRESET_IDS)('%s parses as TypeScript', (id) => {
    const out = langchainTarget.export(presetConfig(id))
    expect(out.language).toBe('typescript')
    const result = ts.transpileModule(out.text, { reportDiagnostics: true, fileName: out.fileName })
    expect(result.diagnostics ?? []).toEqual([])
    expect(Array.isArray(middlewareOf(out.text))).toBe(true)
  })

  it('reproduces anthropic-clear-tool-uses as a ClearToolUsesEdit with no warnings', () => {
    expect(langchainTarget.preset).toBe('anthropic-clear-tool-uses')
    const out = langchainTarget.export(presetConfig('anthropic-clear-tool-uses'))
    expect(out.warnings).toEqual([])
    expect(edits(middlewareOf(out.text))).toEqual([
      {
        // LangChain fires at >= 100,001, which is our "> 100,000".
        trigger: { tokens: 100_001 },
        keep: { messages: 3 },
        excludeTools: [],
        clearToolInputs: false,
        placeholder: '[cleared]',
      },
    ])
  })

  it('maps the recommended preset and warns exactly where LangChain lacks the feature', () => {
    const out = langchainTarget.export(presetConfig('recommended'))
    const [summary, editing] = middlewareOf(out.text)
    expect(summary?.kind).toBe('summarization')
    expect(summary?.options).toMatchObject({
      model: 'openai:gpt-4.1-mini',
      trigger: { tokens: 153_001 },
      keep: { messages: 6 },
      summaryPrefix: '[Summary of earlier conversation]',
    })
    expect(String(summary?.options.summaryPrompt)).toMatch(/\n\n\{messages\}$/)
    expect(editing?.kind).toBe('contextEditing')
    expect(edits([editing!])[0]).toMatchObject({
      trigger: { tokens: 126_000 },
      keep: { messages: 8 },
      excludeTools: ['skill', 'Skill'],
    })
    expect(out.warnings.map((w) => w.path)).toEqual([
      'protections.tools',
      'fallback',
      'pipeline[0]',
      'pipeline[1].target',
      'pipeline[1].params.clearAtLeast',
      'pipeline[2].target',
      'pipeline[2].params.preserveRecentGroups',
      'pipeline[2].params.maxOutputTokens',
      'pipeline[2].params.onFailure',
      // It summarises on every call its trigger holds (found by the differential check).
      'pipeline[2].strategy',
      // "[Summary of earlier conversation]\n": LangChain puts a blank line after the prefix.
      'pipeline[2].params.summaryPrefix',
      'pipeline[2].strategy',
    ])
    // An unbounded summariser input is spelt as a bound no history reaches.
    expect(summary?.options.trimTokensToSummarize).toBe(Number.MAX_SAFE_INTEGER)
  })

  it('maps the summary prefix exactly when it ends in a blank line, never to an empty prefix', () => {
    const at = (summaryPrefix: string) =>
      config({ pipeline: [{ strategy: 'summarize', params: { summaryPrefix, role: 'user' } }] })
    const exact = langchainTarget.export(at('Summary so far:\n\n'))
    expect(middlewareOf(exact.text)[0]?.options.summaryPrefix).toBe('Summary so far:')
    expect(exact.warnings.map((w) => w.path)).not.toContain('pipeline[0].params.summaryPrefix')
    const none = langchainTarget.export(at(''))
    // No prefix at all cannot be had: "" would start the summary with a blank line.
    expect(middlewareOf(none.text)[0]?.options).not.toHaveProperty('summaryPrefix')
    expect(none.warnings.map((w) => w.path)).toContain('pipeline[0].params.summaryPrefix')
    expect(none.text).not.toMatch(/summaryPrefix: ""/)
  })

  it('says in its first line what LangChain will do', () => {
    const out = langchainTarget.export(presetConfig('anthropic-clear-tool-uses'))
    expect(out.text.split('\n')[0]).toBe(`// ${out.summary}`)
    expect(out.summary).toBe(
      'LangChain replaces the results of all but the 3 most recent tool messages with "[cleared]" in the request once it counts 100,001 tokens (the agent’s state keeps the originals).',
    )
    expect(langchainTarget.export(presetConfig('lip')).summary).toMatch(/leaves the conversation/)
  })

  it('combines step triggers with the edit’s own, and drops what LangChain cannot measure', () => {
    const c = config({
      protections: { tools: ['skill'] },
      pipeline: [
        {
          strategy: 'clear-tool-uses',
          trigger: {
            mode: 'any',
            conditions: [
              { kind: 'messages', over: 40 },
              { kind: 'turns', over: 3 },
            ],
          },
          params: { triggerInputTokens: 50_000, clearToolInputs: ['bash'], excludeTools: ['read'] },
        },
      ],
    })
    expect(paths(c)).toEqual([
      'pipeline[0].trigger.conditions[1]',
      'pipeline[0].params.clearToolInputs',
    ])
    expect(edits(middlewareOf(langchainTarget.export(c).text))[0]).toEqual({
      trigger: { messages: 41, tokens: 50_001 },
      keep: { messages: 3 },
      excludeTools: ['read', 'skill'],
      clearToolInputs: false,
      placeholder: '[cleared]',
    })
  })

  it('turns the @falai summary gate into a token trigger', () => {
    const out = langchainTarget.export(presetConfig('falai'))
    expect(middlewareOf(out.text)[0]?.options).toMatchObject({
      trigger: { tokens: 80_000 },
      keep: { messages: 4 },
      summaryPrefix: '[Conversation Summary]',
    })
    expect(out.warnings.map((w) => w.path)).toEqual([
      'pipeline[0]',
      'pipeline[1]',
      'pipeline[2].target',
      'pipeline[2].params.role',
      'pipeline[2].params.maxOutputTokens',
      'pipeline[2].params.onFailure',
      'pipeline[2].strategy',
      'pipeline[2].params.summaryPrefix',
    ])
  })
})
