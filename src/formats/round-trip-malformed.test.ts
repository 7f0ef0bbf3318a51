import { describe, expect, it } from 'vitest'
import type { Conversation, FormatId, Message } from '../engine/model.ts'
import { importTranscript, serializeConversation } from './index.ts'

/**
 * Fuzz findings of issue 10: malformed records that a plain write + read lost. Whatever an importer
 * accepted must come back when its own serializer writes it.
 */
function load(text: string, format?: FormatId): Conversation {
  const r = importTranscript(text, format ? { format } : {})
  if (!r.result.ok) throw new Error(r.result.error.message)
  return r.result.conversation
}
const again = (c: Conversation) => {
  const r = importTranscript(serializeConversation(c), { format: c.meta.format })
  if (!r.result.ok) throw new Error(r.result.error.message)
  return r.result.conversation
}
const kinds = (c: Conversation) => c.messages.map((m) => m.parts.map((p) => p.kind).join(','))

describe('malformed records survive a plain round trip', () => {
  it('claude-code: a null content block stays a null block', () => {
    const c = load(
      [
        {
          type: 'user',
          uuid: 'u1',
          parentUuid: null,
          sessionId: 's',
          message: { role: 'user', content: 'hi' },
        },
        {
          type: 'user',
          uuid: 'u2',
          parentUuid: 'u1',
          sessionId: 's',
          message: { role: 'user', content: [null] },
        },
      ]
        .map((l) => JSON.stringify(l))
        .join('\n'),
    )
    expect(kinds(c)).toEqual(['text', 'opaque'])
    expect(kinds(again(c))).toEqual(['text', 'opaque'])
  })

  it('anthropic-messages: a null content block is written back, not dropped', () => {
    const c = load(
      JSON.stringify({
        model: 'claude-sonnet-4-5',
        max_tokens: 10,
        messages: [
          { role: 'user', content: [null] },
          { role: 'assistant', content: 'ok' },
        ],
      }),
      'anthropic-messages',
    )
    expect(c.meta.format).toBe('anthropic-messages')
    expect(kinds(c)).toEqual(['opaque', 'text'])
    expect(kinds(again(c))).toEqual(['opaque', 'text'])
  })

  it('opencode: a second result for one call is kept (as its own tool part)', () => {
    const c = load(
      JSON.stringify({
        info: { id: 'ses_t', title: 't', directory: '/w', time: { created: 1, updated: 2 } },
        messages: [
          {
            info: { id: 'msg_u', sessionID: 'ses_t', role: 'user', time: { created: 1 } },
            parts: [{ id: 'p1', type: 'text', text: 'go' }],
          },
          {
            info: {
              id: 'msg_a',
              sessionID: 'ses_t',
              role: 'assistant',
              parentID: 'msg_u',
              time: { created: 2 },
            },
            parts: [
              {
                id: 'p2',
                type: 'tool',
                callID: 'c1',
                tool: 'bash',
                state: { status: 'completed', input: { command: 'ls' }, output: 'one' },
              },
            ],
          },
        ],
      }),
    )
    const tool = c.messages.findIndex((m) => m.role === 'tool')
    const original = c.messages[tool] as Message
    const doubled: Conversation = {
      ...c,
      messages: c.messages.map((m, i) =>
        i === tool ? { ...original, parts: [...original.parts, ...original.parts] } : m,
      ),
    }
    const back = again(doubled)
    const results = back.messages.flatMap((m) => m.parts).filter((p) => p.kind === 'tool_result')
    expect(results).toHaveLength(2)
  })

  it('swe-agent: an observation for an unusable id among several comes back once per id', () => {
    const c = load(
      JSON.stringify({
        trajectory: [],
        info: {},
        history: [
          { role: 'user', content: 'fix it' },
          {
            role: 'assistant',
            content: 'reading',
            tool_calls: [
              { id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } },
              { id: 'c2', type: 'function', function: { name: 'g', arguments: '{}' } },
            ],
          },
          { role: 'tool', content: 'out', tool_call_ids: ['c1', 7] },
        ],
      }),
    )
    const count = (x: Conversation) =>
      x.messages.flatMap((m) => m.parts).filter((p) => p.kind === 'tool_result').length
    expect(count(c)).toBe(2)
    expect(count(again(c))).toBe(2)
  })

  it('openai-chat: a content object (neither text nor a list) goes back as it was', () => {
    const c = load(
      JSON.stringify({
        model: 'gpt-4o',
        messages: [
          { role: 'user', content: 'go' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }],
          },
          { role: 'tool', tool_call_id: 'c1', content: { type: 'text', text: '{"a": 1}' } },
        ],
      }),
    )
    const result = (x: Conversation) => x.messages[2]?.parts[0]
    expect(result(c)).toMatchObject({ kind: 'tool_result', content: [{ kind: 'opaque' }] })
    expect(result(again(c))).toMatchObject({ kind: 'tool_result', content: [{ kind: 'opaque' }] })
  })

  it('opencode: a part with a malformed (numeric) id keeps its place among the step markers', () => {
    const c = load(
      JSON.stringify({
        info: { id: 'ses_t', title: 't', directory: '/w', time: { created: 1, updated: 2 } },
        messages: [
          {
            info: { id: 'msg_u', sessionID: 'ses_t', role: 'user', time: { created: 1 } },
            parts: [{ id: 'p1', type: 'text', text: 'go' }],
          },
          {
            info: {
              id: 'msg_a',
              sessionID: 'ses_t',
              role: 'assistant',
              parentID: 'msg_u',
              time: { created: 2 },
            },
            parts: [
              { id: 'p2', type: 'step-start' },
              { id: -1, type: 'reasoning', text: 'thinking' },
              { id: 'p3', type: 'text', text: 'done' },
              { id: 'p4', type: 'step-finish' },
            ],
          },
        ],
      }),
    )
    expect(kinds(c)).toEqual(['text', 'reasoning,text'])
    expect(kinds(again(c))).toEqual(['text', 'reasoning,text'])
  })

  it('codex: a null content block stays a null block', () => {
    const c = load(
      [
        { type: 'session_meta', payload: { id: 's' } },
        { type: 'response_item', payload: { type: 'message', role: 'user', content: [null] } },
        {
          type: 'response_item',
          payload: {
            type: 'message',
            role: 'assistant',
            content: [{ type: 'output_text', text: 'ok' }],
          },
        },
      ]
        .map((l) => JSON.stringify(l))
        .join('\n'),
    )
    expect(kinds(c)).toEqual(['opaque', 'text'])
    expect(kinds(again(c))).toEqual(['opaque', 'text'])
  })

  it('opencode: a user message that reuses the id of the assistant message before it stays a user message', () => {
    const c = load(
      JSON.stringify({
        info: { id: 'ses_t', title: 't', directory: '/w', time: { created: 1, updated: 2 } },
        messages: [
          {
            info: { id: 'm1', sessionID: 'ses_t', role: 'user', time: { created: 1 } },
            parts: [{ id: 'p1', type: 'text', text: 'go' }],
          },
          {
            info: {
              id: 'm2',
              sessionID: 'ses_t',
              role: 'assistant',
              parentID: 'm1',
              time: { created: 2 },
            },
            parts: [{ id: 'p2', type: 'text', text: 'ok' }],
          },
          {
            info: { id: 'm2', sessionID: 'ses_t', role: 'user', time: { created: 3 } },
            parts: [{ id: 'p3', type: 'text', text: 'again' }],
          },
        ],
      }),
    )
    const roles = (x: Conversation) => x.messages.map((m) => m.role)
    expect(roles(c)).toEqual(['user', 'assistant', 'user'])
    expect(roles(again(c))).toEqual(['user', 'assistant', 'user'])
  })

  it('gemini-cli: a record whose content is null is written back with null content', () => {
    const c = load(
      JSON.stringify({
        sessionId: 's',
        projectHash: 'h',
        startTime: 't',
        lastUpdated: 't',
        messages: [
          { id: 'u1', timestamp: 't', type: 'user', content: 'hi' },
          { id: 'g1', timestamp: 't', type: 'gemini', content: null },
        ],
      }),
    )
    expect(kinds(c)).toEqual(['text', 'opaque'])
    expect(kinds(again(c))).toEqual(['text', 'opaque'])
  })
})
