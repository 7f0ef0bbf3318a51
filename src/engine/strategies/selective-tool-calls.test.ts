import { describe, expect, it } from 'vitest'
import type { Part } from '../model.ts'
import { selectiveToolCallsStrategy } from './selective-tool-calls.ts'
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

function twoCalls() {
  const m = messages()
  return conv([
    m('user', 'u'),
    m('assistant', [call('call-1')]),
    m('tool', [result('call-1', 'r1')]),
    m('assistant', [call('call-2')]),
    m('tool', [result('call-2', 'r2')]),
    m('assistant', 'done'),
  ])
}

const excludedMessages = (ctx: Awaited<ReturnType<typeof runStrategy>>) =>
  ctx.view.prepared.conversation.messages
    .map((_, i) => i)
    .filter((i) => ctx.view.isExcluded(ctx.view.prepared.grouping.groupOfMessage[i] as number))

describe('selective-tool-calls (MAF SelectiveToolCallCompactionStrategy)', () => {
  it('MAF example: excludes older tool groups, keeps the newest one', async () => {
    const ctx = await runStrategy(selectiveToolCallsStrategy, twoCalls(), {})
    expect(excludedMessages(ctx)).toEqual([1, 2])
    expect(ctx.decisions[0]).toMatchObject({
      kind: 'exclude',
      reason: 'tool_call_compaction',
      groupId: 'gm2',
      sentence:
        'Selective tool-call compaction: older than the newest 1 tool_call groups; dropped tool_call group gm2 (tool) with 1 calls and 1 results (3 tokens)',
    })
  })

  it('MAF example: keep 0 removes the assistant/tool pair and leaves the chat', async () => {
    const m = messages()
    const c = conv([
      m('user', 'u'),
      m('assistant', [call('call-1')]),
      m('tool', [result('call-1', 'r1')]),
      m('assistant', 'done'),
    ])
    const ctx = await runStrategy(selectiveToolCallsStrategy, c, { keepLastToolCallGroups: 0 })
    expect(transcript(project(ctx))).toEqual(['user: u', 'assistant: done'])
  })

  it('does nothing when the tool groups do not exceed the keep count', async () => {
    const ctx = await runStrategy(selectiveToolCallsStrategy, twoCalls(), {
      keepLastToolCallGroups: 2,
    })
    expect(excludedMessages(ctx)).toEqual([])
    expect(ctx.decisions.map((d) => d.reason)).toEqual(['below_threshold'])
  })

  it('hard cases 2 and 19: the in-flight call of the current turn is never dropped', async () => {
    const m = messages()
    const c = conv([
      m('user', 'do it'),
      m('assistant', [call('c1', 'bash', { cmd: 'ls' })]),
      m('tool', [result('c1', 'a b')]),
      m('assistant', [call('c2', 'bash', { cmd: 'make' }), call('c3', 'bash', { cmd: 'test' })]),
      m('tool', [result('c2', 'built')]),
    ])
    const ctx = await runStrategy(selectiveToolCallsStrategy, c, { keepLastToolCallGroups: 0 })
    expect(excludedMessages(ctx)).toEqual([1, 2])
    expect(ctx.decisions[1]).toMatchObject({
      kind: 'protected',
      protection: 'pending_call',
      groupId: 'gm4',
    })
  })

  it('hard cases 6 and 8: a hosted call with reasoning is one group and goes whole', async () => {
    const m = messages()
    const hosted: Part = {
      kind: 'tool_call',
      callId: 'ws1',
      name: 'web_search',
      argsRaw: '{"query":"zod v4"}',
      serverSide: true,
    }
    const c = conv([
      m('user', 'search'),
      m('assistant', [reasoning('look it up')]),
      m('assistant', [hosted, { kind: 'text', text: 'found it' }]),
      m('assistant', [reasoning('now run code')]),
      m('assistant', [call('ci1', 'code_interpreter', { code: '1+1' })]),
      m('tool', [result('ci1', '2')]),
    ])
    const groups = (await runStrategy(selectiveToolCallsStrategy, c, {})).view.prepared.grouping
    expect(groups.groups.map((g) => [g.kind, g.messages])).toEqual([
      ['user', [0]],
      ['tool_call', [1, 2]],
      ['tool_call', [3, 4, 5]],
    ])
    const ctx = await runStrategy(selectiveToolCallsStrategy, c, {})
    expect(excludedMessages(ctx)).toEqual([1, 2])
    expect(transcript(project(ctx))).toEqual([
      'user: search',
      'assistant: (thinking: now run code)',
      'assistant: [call code_interpreter {"code":"1+1"}]',
      'tool: [result 2]',
    ])
  })

  it('hard case 3: a non-adjacent result goes with its call; the text between stays', async () => {
    const m = messages()
    const c = conv([
      m('user', 'deploy'),
      m('assistant', [call('d1', 'deploy')]),
      m('assistant', 'approval completed'),
      m('tool', [result('d1', 'deployed')]),
      m('assistant', [call('s1', 'status')]),
      m('tool', [result('s1', 'green')]),
    ])
    const ctx = await runStrategy(selectiveToolCallsStrategy, c, {})
    expect(excludedMessages(ctx)).toEqual([1, 3])
    expect(transcript(project(ctx))).toEqual([
      'user: deploy',
      'assistant: approval completed',
      'assistant: [call status {"value":"x"}]',
      'tool: [result green]',
    ])
  })

  it('re-running on its own projection changes nothing more (idempotence)', async () => {
    const first = await runStrategy(selectiveToolCallsStrategy, twoCalls(), {})
    const again = await runStrategy(selectiveToolCallsStrategy, project(first), {})
    expect(again.decisions.map((d) => d.reason)).toEqual(['below_threshold'])
  })

  it('rejects a negative keep count', () => {
    const r = selectiveToolCallsStrategy.schema.safeParse({ keepLastToolCallGroups: -1 })
    expect(r.error?.issues[0]?.message).toBe(
      'keepLastToolCallGroups must be greater than or equal to 0',
    )
    expect(selectiveToolCallsStrategy.schema.parse({})).toEqual({ keepLastToolCallGroups: 1 })
  })
})
