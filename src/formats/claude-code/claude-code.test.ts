import { describe, expect, it } from 'vitest'
import type { Message } from '../../engine/model.ts'
import { sniff } from '../sniff.ts'
import { importer } from './index.ts'
import { roundTrip } from '../testing-corpus.mts'
import { line, user, assistant, jsonl, parse, r2, session } from './fixtures.mts'

describe('claude-code detection', () => {
  it('recognises a session file with high confidence and evidence', () => {
    const d = importer.detect(sniff(session), {
      fileName: '0e1c67aa-53e7-4862-81ae-d0e013e3270b.jsonl',
    })
    expect(d?.format).toBe('claude-code')
    expect(d?.confidence).toBeGreaterThanOrEqual(0.9)
    expect(d?.evidence.join(' ')).toMatch(/lines have a Claude Code `type`/)
  })
  it('does not claim a Codex rollout or an API request body', () => {
    const codex = jsonl(
      { timestamp: 't', type: 'session_meta', payload: { id: 's', cwd: '/w' } },
      {
        timestamp: 't',
        type: 'response_item',
        payload: { type: 'message', role: 'user', content: [] },
      },
    )
    expect(importer.detect(sniff(codex))).toBeNull()
    const body = JSON.stringify({ model: 'claude', messages: [{ role: 'user', content: 'hi' }] })
    expect(importer.detect(sniff(body))).toBeNull()
  })
  it('recognises `claude -p --output-format stream-json` with lower confidence', () => {
    const stream = jsonl(
      { type: 'system', subtype: 'init', session_id: 'abc', model: 'claude-sonnet-4-5', tools: [] },
      {
        type: 'assistant',
        session_id: 'abc',
        parent_tool_use_id: null,
        message: { id: 'msg_9', role: 'assistant', content: [{ type: 'text', text: 'hi' }] },
      },
      { type: 'result', subtype: 'success', session_id: 'abc', result: 'hi' },
    )
    const d = importer.detect(sniff(stream))
    expect(d?.confidence).toBe(0.7)
    const c = parse(stream)
    expect(c.messages).toHaveLength(1)
    expect(c.meta.model).toBe('claude-sonnet-4-5')
    roundTrip(importer, c)
  })
})

describe('claude-code parsing', () => {
  const c = parse(session)
  it('merges the lines of one API response into one assistant message', () => {
    expect(c.messages.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'tool',
      'assistant',
    ])
    const m = c.messages[1] as Message
    expect(m.id).toBe('msg_1')
    expect(m.parts.map((p) => p.kind)).toEqual(['reasoning', 'text', 'tool_call', 'tool_call'])
    expect(m.parts[0]).toMatchObject({
      kind: 'reasoning',
      text: 'plan',
      opaque: { label: 'thinking signature', bytes: 12 },
    })
    expect(m.parts[2]).toMatchObject({
      callId: 'toolu_1',
      name: 'Bash',
      argsRaw: '{"command":"ls"}',
      args: { command: 'ls' },
    })
    // The last line's snapshot, never a sum.
    expect(m.usage).toEqual({
      contextTokens: 12503,
      inputTokens: 3,
      outputTokens: 120,
      cacheReadTokens: 12000,
      cacheWriteTokens: 500,
      source: 'claude-code usage snapshot',
    })
    expect((m.source?.lines as unknown[]).length).toBe(4)
  })
  it('keeps results in file order with their ids, errors and rich content', () => {
    const [first, second] = [c.messages[2] as Message, c.messages[3] as Message]
    expect(first.id).toBe(r2.uuid)
    expect(first.parts[0]).toMatchObject({
      kind: 'tool_result',
      callId: 'toolu_2',
      isError: true,
      content: [{ kind: 'text', text: 'wc: denied' }],
    })
    expect(second.parts[0]).toMatchObject({
      kind: 'tool_result',
      callId: 'toolu_1',
      isError: false,
    })
    const content = second.parts[0]?.kind === 'tool_result' ? second.parts[0].content : []
    expect(content[1]).toMatchObject({ kind: 'image', mediaType: 'image/png', bytes: 8 })
  })
  it('reads meta: title from the last summary line (never a marker), model, cwd, session', () => {
    expect(c.meta).toMatchObject({
      format: 'claude-code',
      title: 'Listing files',
      model: 'claude-sonnet-4-5',
      cwd: '/w',
      sessionId: 's1',
    })
    expect(c.markers).toEqual([])
    expect(c.meta.notes?.join(' ')).toMatch(/1 weird-new-type/)
    expect(c.meta.notes?.join(' ')).toMatch(/1 progress/)
    expect(c.meta.notes?.join(' ')).not.toMatch(/branches/)
  })
  it('round-trips, including the kept non-message lines in their places', () => {
    const text = importer.serialize(c)
    expect(text).toBe(session)
    roundTrip(importer, c)
  })
  it('keeps empty and missing ids as the source has them', () => {
    const x = parse(
      jsonl(
        user('go'),
        assistant(
          'msg_e',
          { type: 'tool_use', id: '', name: 'Read', input: {} },
          { input_tokens: 1 },
        ),
        user([{ type: 'tool_result', content: 'ok' }]),
      ),
    )
    expect(x.messages[1]?.parts[0]).toMatchObject({ kind: 'tool_call', callId: '' })
    expect(x.messages[2]?.parts[0]).toMatchObject({ kind: 'tool_result', callId: null })
    roundTrip(importer, x)
  })
  it('maps images, redacted thinking, server tools and unknown blocks without losing them', () => {
    const x = parse(
      jsonl(
        user([
          { type: 'text', text: 'what is this?' },
          { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: 'AAAABBBB' } },
        ]),
        assistant(
          'msg_r',
          { type: 'redacted_thinking', data: 'ZW5jcnlwdGVk' },
          { input_tokens: 1 },
        ),
        assistant(
          'msg_r',
          { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'x' } },
          { input_tokens: 1 },
        ),
        assistant(
          'msg_r',
          { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [] },
          { input_tokens: 1 },
        ),
      ),
    )
    expect(x.messages[0]?.parts[1]).toMatchObject({ kind: 'image', bytes: 6, data: 'AAAABBBB' })
    expect(x.messages[0]?.injected).toBeUndefined()
    const parts = x.messages[1]?.parts ?? []
    expect(parts[0]).toMatchObject({ kind: 'reasoning', redacted: true, opaque: { bytes: 12 } })
    expect(parts[1]).toMatchObject({
      kind: 'tool_call',
      serverSide: true,
      callType: 'server_tool_use',
    })
    expect(parts[2]).toMatchObject({
      kind: 'opaque',
      opaque: { label: 'web_search_tool_result block' },
    })
    roundTrip(importer, x)
  })
})

describe('claude-code injected messages, sidechains and compaction', () => {
  it('flags meta, command wrappers, reminders and interruptions, not real prompts', () => {
    const x = parse(
      jsonl(
        user('Caveat: local commands below', { isMeta: true }),
        user('<command-name>/clear</command-name>\n<command-message>clear</command-message>'),
        user('<local-command-stdout></local-command-stdout>'),
        user([{ type: 'text', text: '<system-reminder>\nfile changed\n</system-reminder>' }]),
        user([{ type: 'text', text: '[Request interrupted by user for tool use]' }]),
        user([
          { type: 'text', text: '<system-reminder>x</system-reminder>' },
          { type: 'text', text: 'real question' },
        ]),
      ),
    )
    expect(x.messages.map((m) => m.injected ?? false)).toEqual([
      true,
      true,
      true,
      true,
      true,
      false,
    ])
  })
  it('labels sidechains by agentId, by file name, or as "sidechain"', () => {
    const inline = parse(
      jsonl(
        user('main'),
        user('task prompt', { isSidechain: true, parentUuid: null }),
        user('more', { isSidechain: true, parentUuid: 'x' }),
        user('second task', { isSidechain: true, parentUuid: null }),
      ),
    )
    // Each root line (no parent) starts a sub-agent run of its own (its own context).
    expect(inline.messages.map((m) => m.sidechain)).toEqual([
      undefined,
      'sidechain',
      'sidechain',
      'sidechain #2',
    ])
    expect(inline.meta.notes?.join(' ')).toMatch(/3 sidechain/)
    const agent = parse(jsonl(user('sub', { isSidechain: true, agentId: 'a1b2' })))
    expect(agent.messages[0]?.sidechain).toBe('a1b2')
    const byName = parse(jsonl(user('sub', { isSidechain: true })), '/x/subagents/agent-f00d.jsonl')
    expect(byName.messages[0]?.sidechain).toBe('f00d')
  })
  it('turns compact_boundary + isCompactSummary into one boundary marker', () => {
    const before = user('old work')
    const boundary = line('system', {
      subtype: 'compact_boundary',
      content: 'Conversation compacted',
      compactMetadata: { trigger: 'auto', preTokens: 155979 },
      logicalParentUuid: before.uuid,
    })
    const summary = user(
      'This session is being continued from a previous conversation…',
      { isCompactSummary: true, isVisibleInTranscriptOnly: true },
      boundary.uuid,
    )
    const x = parse(
      jsonl(
        before,
        boundary,
        summary,
        user('next', {}, summary.uuid),
        line('system', { subtype: 'microcompact_boundary' }),
      ),
    )
    expect(x.markers).toHaveLength(1)
    expect(x.markers[0]).toMatchObject({
      origin: 'claude-code-boundary',
      beforeIndex: 1,
      trigger: 'auto',
      preTokens: 155979,
      summary: 'This session is being continued from a previous conversation…',
      line: 2,
    })
    expect(x.messages[1]?.injected).toBe(true)
    expect(x.meta.notes?.join(' ')).toMatch(/1 microcompact_boundary/)
    roundTrip(importer, x)
  })
  it('turns an old-style root isCompactSummary line into a summary marker', () => {
    const x = parse(
      jsonl(user('a'), user('b'), user('Summary of before', { isCompactSummary: true })),
    )
    expect(x.markers).toEqual([
      expect.objectContaining({
        origin: 'claude-code-summary',
        beforeIndex: 2,
        summary: 'Summary of before',
        line: 3,
      }),
    ])
  })
  it('notes branches (rewinds) but keeps them; parallel results are not branches', () => {
    const root = user('first')
    const x = parse(
      jsonl(
        root,
        assistant('msg_a', { type: 'text', text: 'A' }, { input_tokens: 1 }, root.uuid),
        assistant('msg_b', { type: 'text', text: 'B' }, { input_tokens: 1 }, root.uuid),
      ),
    )
    expect(x.messages).toHaveLength(3)
    expect(x.meta.notes).toContain('1 branches (rewinds) kept in file order')
  })
})
