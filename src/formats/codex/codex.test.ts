import { describe, expect, it } from 'vitest'
import type { Conversation, Message } from '../../engine/model.ts'
import { sniff } from '../sniff.ts'
import { digest } from '../testing.ts'
import { importer } from './index.ts'
import { roundTrip } from '../testing-corpus.mts'
import { rl, item, event, msg, jsonl, parse, rollout } from './fixtures.mts'

describe('codex detection', () => {
  it('recognises a rollout with high confidence and evidence', () => {
    const d = importer.detect(sniff(rollout), { fileName: 'rollout-2026-01-01T00-00-00-abc.jsonl' })
    expect(d).toMatchObject({ format: 'codex' })
    expect(d?.confidence).toBeGreaterThanOrEqual(0.9)
    expect(d?.evidence.join(' ')).toMatch(/lines have a rollout `type`/)
    expect(d?.evidence.join(' ')).toMatch(/is a Codex rollout/)
  })
  it('does not claim Claude Code lines, `codex exec --json` or a Responses body', () => {
    const cc = jsonl({
      type: 'user',
      uuid: 'u',
      parentUuid: null,
      sessionId: 's',
      message: { role: 'user', content: 'x' },
    })
    expect(importer.detect(sniff(cc))).toBeNull()
    const exec = jsonl(
      { type: 'thread.started', thread_id: 't' },
      { type: 'item.completed', item: { id: 'i', type: 'agent_message' } },
    )
    expect(importer.detect(sniff(exec))).toBeNull()
    const body = JSON.stringify({
      model: 'gpt-5',
      input: [{ type: 'message', role: 'user', content: 'hi' }],
    })
    expect(importer.detect(sniff(body))).toBeNull()
  })
})

describe('codex parsing', () => {
  const c = parse(rollout)
  const roles = c.messages.map((m) => `${m.role}${m.injected ? '*' : ''}`)
  it('builds the context from response items only, one assistant message per model call', () => {
    expect(roles).toEqual([
      'system*',
      'user*',
      'user*',
      'user',
      'assistant',
      'tool',
      'tool',
      'assistant',
      'tool',
      'tool',
      'assistant',
    ])
    const a = c.messages[4] as Message
    expect(a.parts.map((p) => p.kind)).toEqual(['reasoning', 'text', 'tool_call', 'tool_call'])
    expect(a.parts[0]).toMatchObject({
      text: 'Planning',
      textKind: 'summary',
      opaque: { label: 'encrypted reasoning', bytes: 16 },
    })
    expect(a.parts[2]).toMatchObject({
      callId: 'call_1',
      name: 'shell',
      argsRaw: '{"command":["ls"]}',
      args: { command: ['ls'] },
      callType: 'function',
    })
    expect(a.parts[3]).toMatchObject({ callId: 'call_2', argsRaw: '{"command":["wc"' })
    expect(a.parts[3]).toHaveProperty('argsError')
    expect(a.model).toBe('gpt-5.2-codex')
    expect((a.source?.lines as unknown[]).length).toBe(4)
  })
  it('keeps tool outputs in file order with their call ids', () => {
    expect(c.messages[5]?.parts[0]).toMatchObject({
      kind: 'tool_result',
      callId: 'call_2',
      content: [{ kind: 'text', text: 'wc: error' }],
    })
    expect(c.messages[6]?.parts[0]).toMatchObject({ kind: 'tool_result', callId: 'call_1' })
  })
  it('maps custom, local shell and web search calls; ghost snapshots are not messages', () => {
    const parts = c.messages[7]?.parts ?? []
    expect(parts[0]).toMatchObject({
      kind: 'tool_call',
      callType: 'custom',
      argsRaw: '*** Begin Patch\n*** End Patch',
      name: 'apply_patch',
    })
    expect(parts[0]).not.toHaveProperty('argsError')
    expect(parts[1]).toMatchObject({
      kind: 'tool_call',
      serverSide: true,
      callType: 'web_search',
      callId: null,
      args: { type: 'search', query: 'codex' },
    })
    expect(parts[2]).toMatchObject({
      kind: 'tool_call',
      callType: 'local_shell',
      callId: 'call_4',
      args: { command: ['pwd'] },
    })
    expect(c.meta.notes?.join(' ')).toMatch(/1 response_item\/ghost_snapshot/)
    expect(c.meta.notes?.join(' ')).toMatch(/1 mystery_line/)
  })
  it('puts last_token_usage on the latest assistant message, never the cumulative total', () => {
    expect(c.messages[4]?.usage).toEqual({
      contextTokens: 5200,
      inputTokens: 5200,
      outputTokens: 40,
      cacheReadTokens: 4096,
      reasoningTokens: 12,
      source: 'codex token_count',
    })
    expect(c.messages[7]?.usage?.contextTokens).toBe(6100)
    expect(c.messages[10]?.usage).toBeUndefined()
  })
  it('reads meta and the system prompt from session_meta / turn_context / token_count', () => {
    expect(c.meta).toMatchObject({
      format: 'codex',
      sessionId: 'sess-1',
      cwd: '/w',
      model: 'gpt-5.2-codex',
      contextWindow: 258400,
    })
    expect(c.system).toEqual([{ kind: 'text', text: 'You are Codex.' }])
    expect(c.markers).toEqual([])
  })
  it('round-trips to the same lines', () => {
    expect(importer.serialize(c)).toBe(rollout)
    roundTrip(importer, c)
  })
  it('uses an event_msg prompt only when no response_item prompt was recorded', () => {
    const x = parse(
      jsonl(
        rl('session_meta', { id: 's' }),
        event({ type: 'user_message', message: 'only as event' }),
        item({ type: 'reasoning', summary: [], content: null, encrypted_content: 'xx' }),
        item({
          type: 'message',
          role: 'assistant',
          content: [{ type: 'output_text', text: 'ok' }],
        }),
        msg('user', 'second'),
        event({ type: 'user_message', message: 'second (UI copy)' }),
        msg('assistant', 'fine'),
      ),
    )
    expect(x.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant'])
    expect(x.messages[0]?.parts[0]).toMatchObject({ text: 'only as event' })
    expect(x.messages[0]?.source?.fromEvent).toBe(true)
    expect(x.meta.notes?.join(' ')).toMatch(/1 user prompts taken from event_msg/)
    roundTrip(importer, x)
  })
  it('an event prompt followed by a different user item is a message of its own', () => {
    // What a compacted export writes when a summary follows a prompt that only exists as an event.
    const x = parse(
      jsonl(
        rl('session_meta', { id: 's' }),
        event({ type: 'user_message', message: 'the real prompt' }),
        msg('user', '[Tool results: earlier work]'),
        msg('assistant', 'ok'),
      ),
    )
    expect(x.messages.map((m) => [m.role, m.parts[0]?.kind === 'text' && m.parts[0].text])).toEqual(
      [
        ['user', 'the real prompt'],
        ['user', '[Tool results: earlier work]'],
        ['assistant', 'ok'],
      ],
    )
  })
  it('an event prompt written after an exported user item comes back as a message (not as its UI copy)', () => {
    const c = parse(
      jsonl(
        rl('session_meta', { id: 's' }),
        event({ type: 'user_message', message: 'only as event' }),
        msg('assistant', 'ok'),
      ),
    )
    const summary: Message = {
      id: 'sum',
      role: 'user',
      parts: [{ kind: 'text', text: '[Tool results: x]' }],
    }
    const edited: Conversation = { ...c, messages: [summary, ...c.messages] }
    const again = parse(importer.serialize(edited))
    expect(
      again.messages.map((m) => [m.role, m.parts[0]?.kind === 'text' && m.parts[0].text]),
    ).toEqual([
      ['user', '[Tool results: x]'],
      ['user', 'only as event'],
      ['assistant', 'ok'],
    ])
  })
  it('a system prompt a compaction dropped stays dropped (empty instructions are no prompt)', () => {
    const c = parse(
      jsonl(rl('session_meta', { id: 's', instructions: 'You are Codex.' }), msg('user', 'hi')),
    )
    expect(c.system).toHaveLength(1)
    expect(parse(importer.serialize({ ...c, system: [] })).system).toEqual([])
  })
  it('an unknown content block of a message stays a content block when the message is written anew', () => {
    const c = parse(
      jsonl(
        item({ type: 'message', role: 'user', content: [{ type: 'dup', text: 'hi' }] }),
        msg('assistant', 'ok'),
      ),
    )
    // Without its source line (as after a compaction), the message is written from its parts.
    const { source: _line, ...fresh } = c.messages[0] as Message
    const again = parse(importer.serialize({ ...c, messages: [fresh, ...c.messages.slice(1)] }))
    expect(again.messages.map((m) => m.role)).toEqual(['user', 'assistant'])
    expect(again.messages[0]?.parts[0]).toMatchObject({ kind: 'opaque', raw: { type: 'dup' } })
  })
  it('reads images, refusals, missing and empty call ids', () => {
    const x = parse(
      jsonl(
        item({
          type: 'message',
          role: 'user',
          content: [
            { type: 'input_text', text: 'see' },
            { type: 'input_image', image_url: 'data:image/png;base64,iVBORw0KGgo=' },
          ],
        }),
        item({ type: 'function_call', name: 'f', arguments: '', call_id: '' }),
        item({ type: 'function_call', name: 'g', arguments: '{}' }),
        item({ type: 'message', role: 'assistant', content: [{ type: 'refusal', refusal: 'no' }] }),
        item({ type: 'function_call_output', output: [{ type: 'input_text', text: 'r' }] }),
      ),
    )
    expect(x.messages[0]?.parts[1]).toMatchObject({
      kind: 'image',
      mediaType: 'image/png',
      bytes: 8,
    })
    expect(x.messages[1]?.parts[0]).toMatchObject({ callId: '', argsRaw: '' })
    expect(x.messages[1]?.parts[1]).toMatchObject({ callId: null })
    expect(x.messages[1]?.parts[2]).toMatchObject({
      kind: 'text',
      text: 'no',
      meta: { refusal: true },
    })
    expect(x.messages[2]?.parts[0]).toMatchObject({
      kind: 'tool_result',
      callId: null,
      content: [{ kind: 'text', text: 'r' }],
    })
    roundTrip(importer, x)
  })
})

describe('codex compaction', () => {
  it('turns a compacted line into a marker at the next message, without replaying its history', () => {
    const x = parse(
      jsonl(
        msg('user', 'a'),
        msg('assistant', 'b'),
        rl('compacted', {
          message: 'Summary: a then b',
          replacement_history: [
            { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'a' }] },
            { type: 'compaction', encrypted_content: 'ENC' },
          ],
        }),
        event({ type: 'context_compacted' }),
        msg('user', 'c'),
      ),
    )
    expect(x.messages.map((m) => m.parts[0]?.kind === 'text' && m.parts[0].text)).toEqual([
      'a',
      'b',
      'c',
    ])
    expect(x.markers).toEqual([
      expect.objectContaining({
        origin: 'codex-compacted',
        beforeIndex: 2,
        summary: 'Summary: a then b',
        line: 3,
      }),
    ])
    expect(x.meta.notes?.join(' ')).toMatch(/replacement_history: 2 items not added/)
    roundTrip(importer, x)
  })
  it('keeps an encrypted compaction item as an opaque injected message plus a marker', () => {
    const x = parse(
      jsonl(
        msg('user', 'a'),
        item({ type: 'compaction', encrypted_content: 'ENCRYPTED' }),
        msg('user', 'b'),
      ),
    )
    expect(x.messages[1]).toMatchObject({
      role: 'user',
      injected: true,
      parts: [{ kind: 'opaque', opaque: { label: 'encrypted compaction', bytes: 9 } }],
    })
    expect(x.markers).toEqual([
      expect.objectContaining({ beforeIndex: 1, origin: 'codex-compacted' }),
    ])
    expect(x.markers[0]?.summary).toBeUndefined()
    roundTrip(importer, x)
  })
})

describe('codex serializer after edits', () => {
  it('writes changed, removed and added messages so they import back the same', () => {
    const c = parse(rollout)
    const msgs = c.messages as Message[]
    const a = msgs[4] as Message
    const edited: Conversation = {
      ...c,
      system: [{ kind: 'text', text: 'Shorter prompt.' }],
      messages: [
        ...msgs.slice(0, 4),
        { ...a, parts: a.parts.filter((p) => p.kind !== 'reasoning') },
        { id: 'sum', role: 'user', injected: true, parts: [{ kind: 'text', text: 'summary' }] },
        ...msgs.slice(5, 7).map((m) => ({
          ...m,
          parts: m.parts.map((p) =>
            p.kind === 'tool_result'
              ? { ...p, content: [{ kind: 'text' as const, text: '[stub]' }] }
              : p,
          ),
        })),
        ...msgs.slice(7),
      ],
    }
    const out = importer.serialize(edited)
    const r = importer.parse(sniff(out))
    expect(r.ok).toBe(true)
    if (!r.ok) return
    expect(digest(r.conversation)).toEqual(digest(edited))
    expect(r.conversation.system).toEqual([{ kind: 'text', text: 'Shorter prompt.' }])
  })
})
