import { describe, expect, it } from 'vitest'
import { prepare } from '../compaction/prepared.ts'
import { DEFAULT_PROTECTIONS } from '../compaction/protect.ts'
import { compact } from '../compaction/run.ts'
import type { EngineConfig } from '../compaction/types.ts'
import { STRATEGY_REGISTRY } from '../strategies/index.ts'
import { estimateCounter } from '../tokens/index.ts'
import { assessRisk } from './assess.ts'
import { build, conversationOf, type Step } from './builder.testing.ts'

const config = (pipeline: EngineConfig['pipeline']): EngineConfig => ({
  window: { contextTokens: 100_000, reservedOutput: 0, buffer: 0 },
  protections: DEFAULT_PROTECTIONS,
  pipeline,
  fallback: { enabled: false, strict: false },
})

const session: Step[] = [
  { user: 'The loader crashes on empty files.' },
  {
    call: 'read_file',
    args: { path: 'src/settings/loader.py' },
    result: 'def parse_config(path):\n    # line 212 reads the section\n' + '    pass\n'.repeat(40),
  },
  { call: 'read_file', args: { path: 'src/settings/other.py' }, result: 'x = 1\n'.repeat(40) },
  { say: 'Looking.' },
  { say: 'Thinking.' },
  { say: 'I will guard parse_config around line 212.' },
]

describe('assessRisk on real engine runs', () => {
  it('flags a cleared result whose identifier the agent used later, with calls and tokens', async () => {
    const prepared = prepare(conversationOf(session), estimateCounter)
    const result = await compact(
      prepared,
      config([
        {
          strategy: 'clear-tool-uses',
          enabled: true,
          params: { triggerInputTokens: 0, keep: 1 },
        },
      ]),
      { counter: estimateCounter },
      STRATEGY_REGISTRY,
    )
    const report = assessRisk(prepared, result)
    expect(report.usedLater).toBe(1)
    const [item] = report.items
    expect(item).toMatchObject({
      groupId: 'gm1',
      laterMessageId: 'm7',
      evidence: ['line 212', 'parse_config'],
      // the other read (one call), two texts, then the use
      callsLater: 4,
    })
    const cleared = result.decisions.filter((d) => d.groupId === 'gm1' && d.kind === 'stub')
    expect(item?.tokens).toBe(cleared.reduce((a, d) => a + d.tokensBefore - d.tokensAfter, 0))
    expect(report.tokens).toBe(item?.tokens)
    // the path stays known: the kept call still names it
    expect(item?.evidence).not.toContain('src/settings/loader.py')
  })

  it('reports nothing when nothing was removed, and is deterministic', async () => {
    const prepared = prepare(conversationOf(session), estimateCounter)
    const result = await compact(
      prepared,
      config([]),
      { counter: estimateCounter },
      STRATEGY_REGISTRY,
    )
    expect(assessRisk(prepared, result)).toEqual({ usedLater: 0, tokens: 0, items: [] })
    const built = build(session, [{ step: 1, how: 'exclude' }])
    expect(assessRisk(built.prepared, built.input)).toEqual(assessRisk(built.prepared, built.input))
  })

  it('an excluded group loses its call too: the path becomes evidence', () => {
    const steps: Step[] = [
      ...session.slice(0, 5),
      { call: 'edit_file', args: { path: 'src/settings/loader.py', new: 'x' }, result: 'ok' },
    ]
    const built = build(steps, [{ step: 1, how: 'exclude' }])
    const report = assessRisk(built.prepared, built.input)
    expect(report.items[0]?.evidence).toEqual(['src/settings/loader.py'])
    expect(report.items[0]?.tokens).toBe(100)
  })

  it('a dropped system prompt counts as removed from the start', () => {
    const built = build([{ user: 'hi' }, { say: 'Using the deploy_canary_region setting.' }], [], {
      system: [{ kind: 'text', text: 'Deploy with deploy_canary_region = eu-west-3.' }],
    })
    const dropped = { ...built.input, projection: { ...built.input.projection, system: [] } }
    const report = assessRisk(built.prepared, dropped)
    expect(report.items.map((i) => [i.groupId, i.evidence])).toEqual([
      ['g:system', ['deploy_canary_region']],
    ])
    expect(assessRisk(built.prepared, built.input).usedLater).toBe(0)
  })
})
