import { describe, expect, it } from 'vitest'
import type { Part, ToolCallPart } from '../model.ts'
import { clearToolUsesStrategy } from './clear-tool-uses.ts'
import {
  call,
  conv,
  messages,
  project,
  result,
  runStrategy,
  transcript,
  type Setup,
} from './truncation/testing.ts'
import { estimateCounter } from '../tokens/index.ts'
import { detailOf } from '../compaction/sentence.ts'

/** A user message, then one call + result per tool name (10-word results). */
function uses(...tools: string[]) {
  const m = messages()
  return conv([
    m('user', 'inspect the repo'),
    ...tools.flatMap((tool, i) => [
      m('assistant', [call(`c${i + 1}`, tool, { path: `f${i + 1}.ts` })]),
      m('tool', [result(`c${i + 1}`, `out${i + 1} `.repeat(10))]),
    ]),
  ])
}

const now = { triggerInputTokens: 0 }
const run = (c: ReturnType<typeof conv>, params: Record<string, unknown>, setup: Setup = {}) =>
  runStrategy(clearToolUsesStrategy, c, params, setup)
/** chars/4: JSON inputs cost more than `{}` (one word each under the word counter). */
const chars: Setup = { counter: estimateCounter }
const results = (ctx: Awaited<ReturnType<typeof run>>) =>
  transcript(project(ctx)).filter((t) => t.startsWith('tool:'))

describe('clear-tool-uses (Anthropic clear_tool_uses_20250919)', () => {
  it('keeps the 3 most recent tool uses and clears older results oldest first', async () => {
    const ctx = await run(uses('read', 'read', 'grep', 'read', 'bash'), now)
    expect(results(ctx)).toEqual([
      'tool: [result [cleared]]',
      'tool: [result [cleared]]',
      `tool: [result ${'out3 '.repeat(10)}]`,
      `tool: [result ${'out4 '.repeat(10)}]`,
      `tool: [result ${'out5 '.repeat(10)}]`,
    ])
    const stubs = ctx.decisions.filter((d) => d.kind === 'stub')
    expect(stubs.map((d) => [d.groupId, d.reason, d.tokensBefore, d.tokensAfter])).toEqual([
      ['gm2', 'tool_use_cleared', 10, 1],
      ['gm4', 'tool_use_cleared', 10, 1],
    ])
    expect(detailOf(stubs[0])).toBe(
      'Clear tool uses: older than the 3 most recent tool uses; replaced the read result with "[cleared]"',
    )
    expect(ctx.decisions.filter((d) => d.reason === 'keep_recent')).toHaveLength(3)
  })

  it('is not triggered under 100 000 input tokens by default', async () => {
    const ctx = await run(uses('read', 'read', 'read', 'read'), {})
    expect(ctx.decisions.map((d) => d.reason)).toEqual(['below_threshold'])
    expect(detailOf(ctx.decisions[0])).toBe(
      'Clear tool uses not triggered: 51 input tokens vs trigger 100000',
    )
  })

  it('tool_uses trigger: fires only with more tool uses than the trigger', async () => {
    const params = { triggerInputTokens: null, triggerToolUses: 4, keep: 1 }
    const four = await run(uses('a', 'b', 'c', 'd'), params)
    expect(four.decisions.map((d) => d.reason)).toEqual(['below_threshold'])
    expect(detailOf(four.decisions[0])).toBe(
      'Clear tool uses not triggered: 4 tool uses vs trigger 4',
    )
    const five = await run(uses('a', 'b', 'c', 'd', 'e'), params)
    expect(five.decisions.filter((d) => d.kind === 'stub')).toHaveLength(4)
  })

  it('clear_at_least: changes nothing unless enough tokens can be cleared', async () => {
    const below = await run(uses('read', 'read', 'read', 'read', 'read'), {
      ...now,
      clearAtLeast: 19,
    })
    expect(below.decisions.map((d) => d.reason)).toEqual(['below_threshold'])
    expect(detailOf(below.decisions[0])).toBe(
      'Clear tool uses: only 18 tokens could be cleared from 2 older tool uses, below clear_at_least 19; nothing cleared',
    )
    expect(results(below)).not.toContain('tool: [result [cleared]]')
    const enough = await run(uses('read', 'read', 'read', 'read', 'read'), {
      ...now,
      clearAtLeast: 18,
    })
    expect(enough.decisions.filter((d) => d.kind === 'stub')).toHaveLength(2)
  })

  it('exclude_tools: never cleared, but still counted toward keep', async () => {
    const ctx = await run(uses('memory', 'read', 'read', 'read', 'read'), {
      ...now,
      excludeTools: ['memory'],
    })
    expect(results(ctx).slice(0, 2)).toEqual([
      `tool: [result ${'out1 '.repeat(10)}]`,
      'tool: [result [cleared]]',
    ])
    expect(ctx.decisions[0]).toMatchObject({
      kind: 'skip',
      reason: 'denied_by_policy',
      sentence: 'Clear tool uses: memory is in exclude_tools, never cleared',
    })
  })

  it('clear_tool_inputs as a list clears the input of the listed tools only', async () => {
    const ctx = await run(
      uses('write', 'read', 'x', 'y', 'z'),
      { ...now, clearToolInputs: ['write'] },
      chars,
    )
    const calls = ctx.view.prepared.conversation.messages.map((_, i) => ctx.view.currentParts(i)[0])
    const write = calls[1] as ToolCallPart
    const read = calls[3] as ToolCallPart
    expect([write.argsRaw, write.args]).toEqual(['{}', {}])
    expect([read.argsRaw, read.args]).toEqual(['{"path":"f2.ts"}', { path: 'f2.ts' }])
    const inputs = ctx.decisions.filter((d) => detailOf(d).includes('input'))
    expect(inputs.map((d) => detailOf(d))).toEqual([
      'Clear tool uses: older than the 3 most recent tool uses; cleared the write tool_use input to {}',
    ])
  })

  it('clear_tool_inputs: true clears every older input', async () => {
    const ctx = await run(
      uses('write', 'read', 'x', 'y', 'z'),
      { ...now, clearToolInputs: true },
      chars,
    )
    const cleared = ctx.decisions.filter(
      (d) => d.kind === 'stub' && d.target.part === 0 && detailOf(d).includes('input'),
    )
    expect(cleared.map((d) => d.groupId)).toEqual(['gm2', 'gm4'])
  })

  it('hard case 1: parallel calls count as separate tool uses; the calls stay', async () => {
    const m = messages()
    const c = conv([
      m('user', 'weather?'),
      m('assistant', [
        call('a', 'weather', { city: 'Oslo' }),
        call('b', 'weather', { city: 'Rome' }),
      ]),
      m('tool', [result('a', 'cold and windy today')]),
      m('tool', [result('b', 'warm and sunny today')]),
    ])
    const ctx = await run(c, { ...now, keep: 1 })
    expect(transcript(project(ctx))).toEqual([
      'user: weather?',
      'assistant: [call weather {"city":"Oslo"}] [call weather {"city":"Rome"}]',
      'tool: [result [cleared]]',
      'tool: [result warm and sunny today]',
    ])
  })

  it('hard cases 2 and 19: inside one long turn it clears old results; the pending call is refused', async () => {
    const m = messages()
    const pending: Part = call('c9', 'bash', { cmd: 'make test' })
    const c = conv([
      m('user', 'fix the build'),
      ...[1, 2, 3, 4].flatMap((i) => [
        m('assistant', [call(`c${i}`, 'bash', { cmd: `step ${i}` })]),
        m('tool', [result(`c${i}`, 'log line '.repeat(20))]),
      ]),
      m('assistant', [pending]),
    ])
    const ctx = await run(
      c,
      { ...now, keep: 2, clearToolInputs: true, triggerInputTokens: null },
      chars,
    )
    const stubbed = ctx.decisions.filter((d) => d.kind === 'stub').map((d) => d.groupId)
    expect(stubbed).toEqual(['gm2', 'gm2', 'gm4', 'gm4', 'gm6', 'gm6'])
    // keep 2 keeps c4 and the in-flight c9; nothing touches the pending call.
    expect(ctx.view.isModified({ message: 9, part: 0 })).toBe(false)
    const keep = await run(c, { ...now, keep: 0, clearToolInputs: true }, chars)
    expect(keep.decisions.find((d) => d.kind === 'protected')).toMatchObject({
      protection: 'pending_call',
      attempted: 'stub',
    })
  })

  it('is idempotent: cleared results are recognised and not cleared again', async () => {
    const first = await run(uses('read', 'read', 'read', 'read', 'read'), now)
    const again = await run(project(first), now)
    expect(again.decisions.filter((d) => d.kind === 'stub')).toEqual([])
    expect(again.decisions.filter((d) => d.reason === 'already_compacted')).toHaveLength(2)
  })

  it('rejects invalid options and has the API defaults', () => {
    const parse = (p: unknown) => clearToolUsesStrategy.schema.safeParse(p)
    expect(parse({ keep: -1 }).error?.issues[0]?.message).toBe('keep must be 0 or more')
    expect(parse({ clearToolInputs: 'read' }).success).toBe(false)
    expect(parse({ placeholder: '' }).error?.issues[0]?.message).toBe(
      'placeholder must not be empty',
    )
    expect(clearToolUsesStrategy.schema.parse({})).toEqual({
      triggerInputTokens: 100_000,
      triggerToolUses: null,
      keep: 3,
      clearAtLeast: 0,
      excludeTools: [],
      clearToolInputs: false,
      placeholder: '[cleared]',
    })
  })

  it('clears an older result however small, as the API and LangChain do (even an empty one)', async () => {
    const m = messages()
    const c = conv([
      m('user', 'inspect the repo'),
      m('assistant', [call('c1', 'touch', { path: 'a.ts' })]),
      m('tool', [result('c1', '')]),
      m('assistant', [call('c2', 'read', { path: 'a.ts' })]),
      m('tool', [result('c2', 'out '.repeat(10))]),
    ])
    const ctx = await run(c, { ...now, keep: 1 })
    expect(results(ctx)).toEqual([
      'tool: [result [cleared]]',
      `tool: [result ${'out '.repeat(10)}]`,
    ])
  })
})
