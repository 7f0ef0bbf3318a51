import { execFileSync, spawnSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { PRESET_IDS, presetConfig } from '../../config/presets.ts'
import type { CompactionConfig, CompactionConfigInput } from '../../config/schema.ts'
import { validateConfig } from '../../config/validate.ts'
import { STRATEGY_REGISTRY } from '../../engine/strategies/index.ts'
import { mafTarget } from './maf.ts'

const hasPython = spawnSync('python3', ['--version']).status === 0
if (!hasPython) console.warn('python3 is not installed: skipping py_compile of the MAF export')

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

const paths = (c: CompactionConfig) => mafTarget.export(c).warnings.map((w) => w.path)

describe('Microsoft Agent Framework export', () => {
  it.skipIf(!hasPython).each(PRESET_IDS)('%s compiles with python3 -m py_compile', (id) => {
    const out = mafTarget.export(presetConfig(id))
    expect(out.language).toBe('python')
    const dir = mkdtempSync(join(tmpdir(), 'maf-'))
    const file = join(dir, out.fileName)
    writeFileSync(file, out.text)
    expect(() =>
      execFileSync('python3', ['-m', 'py_compile', file], { stdio: 'pipe' }),
    ).not.toThrow()
  })

  it('reproduces maf-context-window as ContextWindowCompactionStrategy with no warnings', () => {
    expect(mafTarget.preset).toBe('maf-context-window')
    const out = mafTarget.export(presetConfig('maf-context-window'))
    expect(out.warnings).toEqual([])
    expect(out.text).toContain(
      'ContextWindowCompactionStrategy(\n    max_context_window_tokens=128_000,',
    )
    expect(out.text).toContain('max_output_tokens=16_384,')
    expect(out.text).not.toMatch(/threshold=|keep_last_tool_call_groups/) // all MAF defaults
    expect(out.text).toContain('CompactionProvider(before_strategy=strategy, tokenizer=tokenizer)')
    expect(out.text).toContain('tiktoken.get_encoding("o200k_base")')
  })

  it('derives non-default thresholds when the shape matches at other fractions', () => {
    const base = presetConfig('maf-context-window')
    // Budget 100k: eviction at 30k, truncation at 90k, keeping 2 tool groups.
    const at = (over: number) => ({
      mode: 'any' as const,
      conditions: [{ kind: 'tokens' as const, over }],
    })
    const [collapse, budget1, truncation, budget2] = base.pipeline
    const c: CompactionConfig = {
      ...base,
      window: { contextTokens: 100_000, reservedOutput: 0, buffer: 0 },
      pipeline: [
        {
          ...collapse!,
          trigger: at(30_000),
          params: { ...collapse!.params, keepLastToolCallGroups: 2 },
        },
        { ...budget1!, trigger: at(30_000), params: { ...budget1!.params, tokenBudget: 30_000 } },
        {
          ...truncation!,
          trigger: at(90_000),
          params: { ...truncation!.params, maxN: 90_000, compactTo: 30_000 },
        },
        { ...budget2!, trigger: at(90_000), params: { ...budget2!.params, tokenBudget: 90_000 } },
      ],
    }
    const out = mafTarget.export(c)
    expect(out.warnings).toEqual([])
    expect(out.text).toContain('tool_eviction_threshold=0.3,')
    expect(out.text).toContain('truncation_threshold=0.9,')
    expect(out.text).toContain('keep_last_tool_call_groups=2,')
  })

  it('composes the same phases explicitly when the window does not match', () => {
    const base = presetConfig('maf-context-window')
    const out = mafTarget.export({ ...base, window: { ...base.window, contextTokens: 200_000 } })
    expect(out.warnings).toEqual([])
    expect(out.text).not.toContain('ContextWindowCompactionStrategy')
    expect(out.text.match(/TokenBudgetComposedStrategy\(/g)).toHaveLength(2)
    expect(out.text).toContain('token_budget=55_808,')
    expect(out.text).toContain('ToolResultCompactionStrategy(keep_last_tool_call_groups=4)')
    expect(out.text).toContain(
      'TruncationStrategy(max_n=89_292, compact_to=55_808, tokenizer=tokenizer)',
    )
    expect(out.text).toContain('async def strategy(messages: list[Message]) -> bool:')
  })

  it('warns exactly where MAF lacks the feature', () => {
    expect(paths(presetConfig('recommended'))).toEqual([
      'protections.tools',
      'pipeline[0]',
      'pipeline[1]',
      'pipeline[2].target',
      'pipeline[2].params.preserveRecentGroups',
      'pipeline[2].params.role',
      'pipeline[2].params.summaryPrefix',
      'pipeline[2].params.maxOutputTokens',
      'fallback.strict',
    ])
    expect(paths(presetConfig('anthropic-clear-tool-uses'))).toEqual(['pipeline[0]'])
    expect(paths(presetConfig('lip'))).toEqual(['pipeline[0]'])
  })

  it('runs a token-triggered summary only over its token count (OverTokens), not on message count alone', () => {
    for (const [id, over] of [
      ['recommended', 153_000],
      ['opencode', 180_000],
      // falai runs at or over 100k × 0.8: over 79,999.
      ['falai', 79_999],
    ] as const) {
      const out = mafTarget.export(presetConfig(id))
      expect(out.text).toMatch(
        new RegExp(
          `OverTokens\\(\\n\\s+${over.toLocaleString('en').replace(/,/g, '_')},\\n\\s+SummarizationStrategy\\(`,
        ),
      )
      expect(out.text).toContain('class OverTokens:')
      expect(out.text).toMatch(/annotate_token_counts,\n\s+included_token_count,/)
      expect(out.summary).toContain(`once over ${over.toLocaleString('en')} tokens summarises`)
      expect(out.warnings.map((w) => w.path)).not.toContain(
        'pipeline[2].params.compactionThreshold',
      )
    }
  })

  it('gates any token-triggered strategy and says in its first line what MAF will do', () => {
    const c = config({
      pipeline: [
        {
          strategy: 'sliding-window',
          trigger: { conditions: [{ kind: 'tokens', over: 50_000 }] },
          params: { keepLastGroups: 12 },
        },
      ],
    })
    const out = mafTarget.export(c)
    expect(out.warnings).toEqual([])
    expect(out.text).toContain(
      'strategy = OverTokens(50_000, SlidingWindowStrategy(keep_last_groups=12))',
    )
    expect(out.text.split('\n')[0]).toBe(`# ${out.summary}`)
    expect(out.summary).toBe(
      'Agent Framework, before each agent run, once over 50,000 tokens keeps only the newest 12 groups (and the system messages).',
    )
  })

  it('maps a message trigger onto SummarizationStrategy threshold and each strategy by name', () => {
    const c = config({
      tokenizer: 'estimate',
      pipeline: [
        { strategy: 'sliding-window', params: { keepLastGroups: 12, preserveSystem: false } },
        { strategy: 'selective-tool-calls', params: { keepLastToolCallGroups: 0 } },
        {
          strategy: 'summarize',
          trigger: { conditions: [{ kind: 'messages', over: 10 }] },
          params: {
            compactionThreshold: null,
            role: 'assistant',
            placement: 'at_first_covered',
            summaryPrefix: '',
            onFailure: 'fail_open',
            maxSummaryInputTokens: 8_000,
          },
        },
        { strategy: 'collapse-tool-results', params: { maxSummaryChars: 500, faithful: true } },
      ],
    })
    const out = mafTarget.export(c)
    expect(out.text).toContain('tokenizer = CharacterEstimatorTokenizer()')
    expect(out.text).toContain('SlidingWindowStrategy(keep_last_groups=12, preserve_system=False)')
    expect(out.text).toContain('SelectiveToolCallCompactionStrategy(keep_last_tool_call_groups=0)')
    expect(out.text).toMatch(/target_count=4,\s+threshold=6,/)
    expect(out.text).toContain('max_summary_input_tokens=8_000,')
    expect(out.warnings.map((w) => w.path)).toEqual([
      'pipeline[2].params.maxOutputTokens',
      'pipeline[3].params.maxSummaryChars',
      'pipeline[3].params.faithful',
    ])
  })

  it('turns the final fallback into an empty composed strategy and says it is strict', () => {
    const c = config({
      protections: { recentTurns: 1, pinned: ['a'] },
      pipeline: [{ strategy: 'micro-compact' }],
      fallback: { enabled: true, target: { kind: 'window_fraction', under: 0.5 } },
    })
    const out = mafTarget.export(c)
    expect(out.text).toContain('token_budget=95_904,')
    expect(out.text).toContain('strategies=[],')
    expect(out.warnings.map((w) => w.path)).toEqual([
      'protections.recentTurns',
      'protections.pinned',
      'pipeline[0]',
      'fallback.strict',
    ])
  })
})
