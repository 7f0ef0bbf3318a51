import { describe, expect, it } from 'vitest'
import type { Part } from '../model.ts'
import { clearThinkingStrategy } from './clear-thinking.ts'
import {
  call,
  conv,
  messages,
  project,
  reasoning,
  result,
  runStrategy,
  transcript,
} from './truncation/testing.ts'
import { detailOf } from '../compaction/sentence.ts'

const signed = (t: string): Part =>
  reasoning(t, { opaque: { label: 'thinking signature', bytes: 40, data: 'c2ln'.repeat(10) } })

/** Three assistant turns with thinking, the last one a tool call still in the tool loop. */
function agent() {
  const m = messages()
  return conv([
    m('user', 'q1'),
    m('assistant', [signed('think one'), { kind: 'text', text: 'a1' }]),
    m('user', 'q2'),
    m('assistant', [signed('think two'), call('c1', 'read', { path: 'x' })]),
    m('user', [result('c1', 'x')]),
    m('assistant', [signed('think three'), call('c2', 'read', { path: 'y' })]),
    m('user', [result('c2', 'y')]),
  ])
}

const thinking = (ctx: Awaited<ReturnType<typeof runStrategy>>) =>
  transcript(project(ctx)).filter((t) => t.includes('thinking:'))

describe('clear-thinking (Anthropic clear_thinking_20251015)', () => {
  it('default keep 1: only the latest assistant turn keeps its thinking', async () => {
    const ctx = await runStrategy(clearThinkingStrategy, agent(), {})
    expect(thinking(ctx)).toEqual(['assistant: (thinking: think three) [call read {"path":"y"}]'])
    const trims = ctx.decisions.filter((d) => d.kind === 'trim')
    expect(trims.map((d) => [d.groupId, d.reason, d.kind === 'trim' && d.replacement])).toEqual([
      ['gm2', 'thinking_cleared', null],
      ['gm4', 'thinking_cleared', null],
    ])
    expect(detailOf(trims[0])).toBe(
      'Clear thinking: thinking turn 1 of 3 (message m2) is older than the 1 most recent thinking turns; thinking block removed',
    )
    expect(ctx.decisions.at(-1)).toMatchObject({
      kind: 'skip',
      reason: 'keep_recent',
      sentence:
        'Clear thinking: thinking turn 3 of 3 (message m6) is within keep 1; 1 thinking blocks kept',
    })
  })

  it('keep 2 keeps the two newest thinking turns', async () => {
    const ctx = await runStrategy(clearThinkingStrategy, agent(), { keep: 2 })
    expect(thinking(ctx)).toHaveLength(2)
    expect(ctx.decisions.filter((d) => d.kind === 'trim').map((d) => d.groupId)).toEqual(['gm2'])
  })

  it('keep "all" keeps every thinking block', async () => {
    const ctx = await runStrategy(clearThinkingStrategy, agent(), { keep: 'all' })
    expect(thinking(ctx)).toHaveLength(3)
    expect(ctx.decisions.map((d) => d.reason)).toEqual([
      'keep_recent',
      'keep_recent',
      'keep_recent',
    ])
  })

  it('hard case 7: keep 0 — the latest assistant message’s thinking is refused and recorded', async () => {
    const ctx = await runStrategy(clearThinkingStrategy, agent(), { keep: 0 })
    expect(thinking(ctx)).toEqual(['assistant: (thinking: think three) [call read {"path":"y"}]'])
    const refused = ctx.decisions.find((d) => d.kind === 'protected')
    expect(refused).toMatchObject({
      protection: 'latest_thinking',
      attempted: 'trim',
      target: { message: 5, part: 0 },
    })
    // byte-identical: the very same part object, signature included.
    const original = ctx.view.prepared.conversation.messages[5]?.parts[0]
    expect(ctx.view.part({ message: 5, part: 0 })).toBe(original)
    expect(original).toEqual(signed('think three'))
    expect(ctx.view.isModified({ message: 5, part: 0 })).toBe(false)
  })

  it('redacted thinking is cleared with the rest of an older turn', async () => {
    const m = messages()
    const redacted = reasoning('', {
      redacted: true,
      opaque: { label: 'redacted thinking', bytes: 64, data: 'x'.repeat(64) },
    })
    const c = conv([
      m('user', 'q1'),
      m('assistant', [redacted, signed('more'), { kind: 'text', text: 'a1' }]),
      m('user', 'q2'),
      m('assistant', [signed('latest'), { kind: 'text', text: 'a2' }]),
    ])
    const ctx = await runStrategy(clearThinkingStrategy, c, {})
    expect(
      ctx.decisions.filter((d) => d.kind === 'trim').map((d) => d.kind === 'trim' && d.target),
    ).toEqual([
      { message: 1, part: 0 },
      { message: 1, part: 1 },
    ])
    expect(transcript(project(ctx))[1]).toBe('assistant: a1')
  })

  it('a turn is a run of consecutive assistant messages (reasoning-only message + call)', async () => {
    const m = messages()
    const c = conv([
      m('user', 'q1'),
      m('assistant', [reasoning('plan')]),
      m('assistant', [reasoning('more plan'), call('c1', 'read')]),
      m('tool', [result('c1', 'r')]),
      m('assistant', [reasoning('answer'), { kind: 'text', text: 'done' }]),
    ])
    const ctx = await runStrategy(clearThinkingStrategy, c, {})
    expect(
      ctx.decisions.filter((d) => d.kind === 'trim').map((d) => d.kind === 'trim' && d.target),
    ).toEqual([
      { message: 1, part: 0 },
      { message: 2, part: 0 },
    ])
  })

  it('re-running on its own projection changes nothing more (idempotence)', async () => {
    const first = await runStrategy(clearThinkingStrategy, agent(), {})
    const again = await runStrategy(clearThinkingStrategy, project(first), {})
    expect(again.decisions.map((d) => d.reason)).toEqual(['keep_recent'])
  })

  it('rejects invalid options', () => {
    const parse = (p: unknown) => clearThinkingStrategy.schema.safeParse(p)
    expect(parse({ keep: -1 }).success).toBe(false)
    expect(parse({ keep: 'some' }).success).toBe(false)
    expect(parse({ keep: 1.5 }).success).toBe(false)
    expect(clearThinkingStrategy.schema.parse({})).toEqual({ keep: 1 })
  })
})
