/**
 * Export conformance (issue 11): every config of the matrix — the seven presets and edited
 * configs that use every strategy — translated for all seven targets, and each file checked
 * against the real system: compiled with the TypeScript compiler against the real
 * `@anthropic-ai/sdk` and `langchain` packages (and the LangChain middleware built with them),
 * and checked against key lists and types written down from the real sources where the system
 * is not an npm package (`facts/`). opencode's own binary runs in `npm run verify:exports`.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { EXPORT_TARGETS, exportTarget } from '../targets/index.ts'
import type { TargetId, TargetOutput } from '../targets/types.ts'
import { adachsoftProblems, lipProblems, mafProblems, opencodeProblems } from './checks.testing.ts'
import { CONFORMANCE_CONFIGS } from './configs.testing.ts'
import { FALAI_DECLARATION, falaiOptionProblems } from './facts/falai.ts'
import { typecheck } from './typecheck.mts'

const exports = (target: TargetId): (readonly [string, TargetOutput])[] =>
  CONFORMANCE_CONFIGS.map(([name, config]) => [name, exportTarget(target, config)] as const)

/** Virtual file names must be identifiers-ish: `maf-context-window` → `maf_context_window`. */
const slug = (name: string) => name.replace(/[^A-Za-z0-9]/g, '_')

/** Run a TypeScript export as CommonJS with `modules` standing in for its imports. */
function evaluate(
  text: string,
  modules: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const js = ts.transpileModule(text, {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
  }).outputText
  const exported: Record<string, unknown> = {}
  const require = (name: string) => {
    if (!(name in modules)) throw new Error(`unexpected import ${name}`)
    return modules[name]
  }
  new Function('require', 'exports', js)(require, exported)
  return exported
}

describe('export conformance: every target accepts every config', () => {
  it('covers the seven presets and edited configs using every strategy', () => {
    expect(CONFORMANCE_CONFIGS.length).toBeGreaterThanOrEqual(13)
    expect(EXPORT_TARGETS).toHaveLength(7)
  })

  it.each(CONFORMANCE_CONFIGS.map(([name]) => name))(
    '%s: each file opens with its one-line summary',
    (name) => {
      const config = CONFORMANCE_CONFIGS.find(([n]) => n === name)?.[1]
      if (!config) throw new Error(name)
      for (const t of EXPORT_TARGETS) {
        const out = exportTarget(t.id, config)
        expect(out.summary, t.id).toMatch(/^\S.*\.$/)
        expect(out.summary, t.id).not.toContain('\n')
        const first = out.text.split('\n')[0]
        const expected = {
          lip: `# ${out.summary}`,
          opencode: `// ${out.summary}`,
          // A request fragment is plain JSON: the summary travels beside it.
          anthropic: out.language === 'text' ? out.summary : '{',
          falai: `// ${out.summary}`,
          maf: `# ${out.summary}`,
          langchain: `// ${out.summary}`,
          adachsoft: `<?php // ${out.summary}`,
        }[t.id]
        expect(first, t.id).toBe(expected)
      }
    },
  )

  it.each(exports('lip'))('lip %s: config.yaml passes the proxy’s YAML schema', (_name, out) => {
    expect(lipProblems(out.text)).toEqual([])
  })

  it.each(exports('opencode'))('opencode %s: keys and types of opencode’s schema', (_n, out) => {
    expect(opencodeProblems(out.text)).toEqual([])
  })

  it.each(exports('adachsoft'))('adachsoft %s: tool_compaction parameters', (_n, out) => {
    expect(adachsoftProblems(out.text)).toEqual([])
  })

  it.each(exports('maf'))('maf %s: imports and constructor arguments MAF has', (_n, out) => {
    expect(mafProblems(out.text)).toEqual([])
  })

  const hasPython = spawnSync('python3', ['--version']).status === 0
  it.skipIf(!hasPython)('maf: every file compiles with python3 -m py_compile', () => {
    const dir = mkdtempSync(join(tmpdir(), 'maf-conformance-'))
    const files = exports('maf').map(([name, out]) => {
      const file = join(dir, `${slug(name)}.py`)
      writeFileSync(file, out.text)
      return file
    })
    expect(() =>
      execFileSync('python3', ['-m', 'py_compile', ...files], { stdio: 'pipe' }),
    ).not.toThrow()
  })

  it('anthropic: every fragment typechecks as the SDK’s beta context_management request field', () => {
    const files: Record<string, string> = {}
    for (const [name, out] of exports('anthropic')) {
      if (out.language === 'text') {
        expect(out.summary).toMatch(/^Nothing to send: /)
        continue
      }
      files[`anthropic_${slug(name)}.ts`] = [
        "import type { BetaContextManagementConfig, MessageCreateParamsNonStreaming } from '@anthropic-ai/sdk/resources/beta/messages/messages'",
        `const fragment: { context_management: BetaContextManagementConfig } = ${out.text}`,
        "export const request: Pick<MessageCreateParamsNonStreaming, 'context_management'> = fragment",
        '',
      ].join('\n')
    }
    expect(Object.keys(files).length).toBeGreaterThanOrEqual(8)
    expect(typecheck(files)).toEqual([])
  })

  it('langchain: every snippet typechecks against langchain’s middleware types and builds with the real package', () => {
    const files: Record<string, string> = {}
    for (const [name, out] of exports('langchain')) {
      files[`langchain_${slug(name)}.ts`] = out.text
      files[`langchain_${slug(name)}_use.ts`] = [
        "import { createAgent } from 'langchain'",
        `import { compactionMiddleware } from './langchain_${slug(name)}'`,
        "export const agent = createAgent({ model: 'openai:gpt-4.1-mini', tools: [], middleware: compactionMiddleware })",
        '',
      ].join('\n')
    }
    expect(typecheck(files)).toEqual([])
    // Built with the real package: its constructors validate every option (zod schemas).
    const langchain = createRequire(import.meta.url)('langchain') as Record<string, unknown>
    for (const [name, out] of exports('langchain')) {
      const built = evaluate(out.text, { langchain })
      const middleware = built.compactionMiddleware as { name?: string }[]
      expect(Array.isArray(middleware), name).toBe(true)
      for (const m of middleware)
        expect(m.name, name).toMatch(/^(SummarizationMiddleware|ContextEditingMiddleware)$/)
    }
  })

  it('falai: every snippet and its usage line typecheck against AgentCompactionConfig, and pass validateOptions', () => {
    const files: Record<string, string> = { 'falai_agent.d.ts': FALAI_DECLARATION }
    for (const [name, out] of exports('falai')) {
      const usage = /^\/\/ (const agent = new Agent\(.*\))$/m.exec(out.text)?.[1]
      files[`falai_${slug(name)}.ts`] = [
        out.text,
        ...(usage
          ? [
              "import { Agent, type AiProvider } from '@falai/agent'",
              'declare const name: string',
              'declare const provider: AiProvider',
              `export ${usage}`,
            ]
          : []),
        '',
      ].join('\n')
      const options = evaluate(out.text, {}).compaction as
        Parameters<typeof falaiOptionProblems>[0] | undefined
      if (options) expect(falaiOptionProblems(options), name).toEqual([])
      else expect(out.summary, name).toMatch(/never compacts/)
    }
    expect(typecheck(files)).toEqual([])
  })
})
