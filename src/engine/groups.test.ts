import { describe, expect, it } from 'vitest'
import { buildGroups } from './groups.ts'
import type { Message, Part } from './model.ts'

const text = (t: string): Part => ({ kind: 'text', text: t })
const call = (callId: string | null, name = 'read', args: unknown = {}): Part => ({
  kind: 'tool_call',
  callId,
  name,
  argsRaw: JSON.stringify(args),
  args,
})
const result = (callId: string | null, out = 'ok', name?: string): Part => ({
  kind: 'tool_result',
  callId,
  content: [{ kind: 'text', text: out }],
  isError: false,
  ...(name ? { name } : {}),
})
const reasoning = (t: string): Part => ({ kind: 'reasoning', text: t })

let seq = 0
function msg(role: Message['role'], parts: Part[], extra: Partial<Message> = {}): Message {
  seq++
  return { id: `m${seq}`, role, parts, ...extra }
}
function conv(messages: Message[]) {
  return { messages, system: [] }
}

describe('buildGroups', () => {
  it('puts parallel calls and all their results in one group', () => {
    const g = buildGroups(
      conv([
        msg('user', [text('weather in Oslo and Rome?')]),
        msg('assistant', [call('a', 'weather'), call('b', 'weather')]),
        msg('tool', [result('b', '21C')]),
        msg('tool', [result('a', '4C')]),
        msg('assistant', [text('Oslo 4C, Rome 21C')]),
      ]),
    )
    expect(g.groups.map((x) => x.kind)).toEqual(['user', 'tool_call', 'assistant_text'])
    expect(g.groups[1]?.messages).toEqual([1, 2, 3])
    expect(g.groups[1]?.calls).toHaveLength(2)
    expect(g.pairing.results.every((r) => r.pairedBy === 'id')).toBe(true)
  })

  it('pairs results out of order by id', () => {
    const g = buildGroups(
      conv([
        msg('assistant', [call('x'), call('y'), call('z')]),
        msg('tool', [result('z')]),
        msg('tool', [result('x')]),
        msg('tool', [result('y')]),
      ]),
    )
    const callOf = (r: number) => g.pairing.calls[g.pairing.results[r]?.call ?? -1]?.callId
    expect([callOf(0), callOf(1), callOf(2)]).toEqual(['z', 'x', 'y'])
    expect(g.groups).toHaveLength(1)
  })

  it('keeps a result that arrives far from its call in the call group', () => {
    const g = buildGroups(
      conv([
        msg('assistant', [call('slow', 'bash')]),
        msg('assistant', [call('fast', 'read')]),
        msg('tool', [result('fast')]),
        msg('assistant', [text('still waiting')]),
        msg('tool', [result('slow')]),
      ]),
    )
    expect(g.groups.map((x) => x.messages)).toEqual([[0, 4], [1, 2], [3]])
    expect(g.groupOfMessage).toEqual([0, 1, 1, 2, 0])
  })

  it('flags an orphan result and never drops it', () => {
    const g = buildGroups(conv([msg('user', [text('hi')]), msg('tool', [result('ghost')])]))
    expect(g.groups[1]?.kind).toBe('tool_call')
    expect(g.groups[1]?.orphans).toBe(1)
    expect(g.pairing.results[0]?.flag).toBe('orphan')
  })

  it('flags a pending (unanswered) call', () => {
    const g = buildGroups(conv([msg('user', [text('go')]), msg('assistant', [call('p1', 'bash')])]))
    expect(g.groups[1]?.pending).toBe(1)
    expect(g.pairing.calls[0]?.status).toBe('pending')
  })

  it('does not count a provider-executed call without a result as pending', () => {
    const serverCall: Part = { ...(call('ws_1', 'web_search') as object), serverSide: true } as Part
    const g = buildGroups(conv([msg('assistant', [serverCall, text('found it')])]))
    expect(g.pairing.calls[0]?.status).toBe('server')
    expect(g.groups[0]?.pending).toBe(0)
  })

  it('attaches reasoning that precedes a call in its own message', () => {
    const g = buildGroups(
      conv([
        msg('user', [text('q')]),
        msg('assistant', [reasoning('think')]),
        msg('assistant', [call('c1')]),
        msg('tool', [result('c1')]),
      ]),
    )
    expect(g.groups.map((x) => x.messages)).toEqual([[0], [1, 2, 3]])
  })

  it('pairs calls without ids by position within the next turn (Gemini)', () => {
    const g = buildGroups(
      conv([
        msg('assistant', [call(null, 'weather'), call(null, 'time')]),
        msg('user', [result(null, '4C', 'weather'), result(null, '12:00', 'time')]),
      ]),
    )
    expect(g.pairing.results.map((r) => [r.call, r.pairedBy, r.flag])).toEqual([
      [0, 'position', 'missing-id'],
      [1, 'position', 'missing-id'],
    ])
    expect(g.groups).toHaveLength(1)
  })

  it('uses the tool name to pair id-less results answered out of order', () => {
    const g = buildGroups(
      conv([
        msg('assistant', [call(null, 'weather'), call(null, 'time')]),
        msg('user', [result(null, '12:00', 'time')]),
        msg('user', [result(null, '4C', 'weather')]),
      ]),
    )
    expect(g.pairing.results.map((r) => r.call)).toEqual([1, 0])
  })

  it('treats empty-string ids like missing ids', () => {
    const g = buildGroups(
      conv([
        msg('assistant', [call(''), call('')]),
        msg('tool', [result('')]),
        msg('tool', [result('')]),
      ]),
    )
    expect(g.pairing.results.map((r) => r.call)).toEqual([0, 1])
    expect(g.pairing.calls.every((c) => c.status === 'answered')).toBe(true)
  })

  it('answers duplicated ids inside one message in order', () => {
    const g = buildGroups(
      conv([
        msg('assistant', [call('dup'), call('dup')]),
        msg('tool', [result('dup')]),
        msg('tool', [result('dup')]),
      ]),
    )
    expect(g.pairing.results.map((r) => [r.call, r.flag])).toEqual([
      [0, 'duplicate-id'],
      [1, 'duplicate-id'],
    ])
  })

  it('pairs ids reused across turns with their own turn', () => {
    const g = buildGroups(
      conv([
        msg('user', [text('one')]),
        msg('assistant', [call('call_0')]),
        msg('tool', [result('call_0', 'first')]),
        msg('user', [text('two')]),
        msg('assistant', [call('call_0')]),
        msg('tool', [result('call_0', 'second')]),
      ]),
    )
    expect(g.pairing.results.map((r) => g.pairing.calls[r.call]?.message)).toEqual([1, 4])
    expect(g.groups.map((x) => x.turn)).toEqual([1, 1, 2, 2])
  })

  it('pairs a second result for an answered call and flags it', () => {
    const g = buildGroups(
      conv([msg('assistant', [call('r')]), msg('tool', [result('r')]), msg('tool', [result('r')])]),
    )
    expect(g.pairing.results[1]?.flag).toBe('extra-result')
    expect(g.groups).toHaveLength(1)
  })

  it('merges two call groups answered by one message', () => {
    const g = buildGroups(
      conv([
        msg('assistant', [call('a')]),
        msg('assistant', [call('b')]),
        msg('user', [result('a'), result('b')]),
      ]),
    )
    expect(g.groups).toHaveLength(1)
    expect(g.groups[0]?.messages).toEqual([0, 1, 2])
  })

  it('does not start a turn for injected user messages', () => {
    const g = buildGroups(
      conv([
        msg('user', [text('<system-reminder>x</system-reminder>')], { injected: true }),
        msg('user', [text('real question')]),
        msg('assistant', [text('answer')]),
        msg('user', [text('<environment_context/>')], { injected: true }),
      ]),
    )
    expect(g.turns).toBe(1)
    expect(g.groups.map((x) => [x.turn, x.injected])).toEqual([
      [0, true],
      [1, false],
      [1, false],
      [1, true],
    ])
  })

  it('adds a system group for a top-level system prompt', () => {
    const g = buildGroups({
      system: [{ kind: 'text', text: 'be brief' }],
      messages: [msg('user', [text('hi')])],
    })
    expect(g.groups.map((x) => x.kind)).toEqual(['system', 'user'])
  })
})
