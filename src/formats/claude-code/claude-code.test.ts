import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Conversation, Message } from '../../engine/model.ts'
import { sniff } from '../sniff.ts'
import { digest } from '../testing.ts'
import type { ParseResult } from '../types.ts'
import { importer } from './index.ts'

let n = 0
/** A conversation line with the usual Claude Code envelope. */
function line(type: string, fields: Record<string, unknown>, parent: string | null = null) {
  n++
  return {
    parentUuid: parent,
    isSidechain: false,
    userType: 'external',
    cwd: '/w',
    sessionId: 's1',
    version: '2.0.76',
    type,
    uuid: `u${n}`,
    timestamp: `2026-01-01T00:00:${String(n).padStart(2, '0')}Z`,
    ...fields,
  }
}
const user = (
  content: unknown,
  extra: Record<string, unknown> = {},
  parent: string | null = null,
) => line('user', { message: { role: 'user', content }, ...extra }, parent)
const assistant = (
  id: string,
  block: unknown,
  usage: Record<string, number>,
  parent: string | null = null,
  extra = {},
) =>
  line(
    'assistant',
    {
      requestId: `req_${id}`,
      message: {
        id,
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        content: [block],
        stop_reason: null,
        usage,
      },
      ...extra,
    },
    parent,
  )
const jsonl = (...objs: unknown[]) => objs.map((o) => JSON.stringify(o)).join('\n') + '\n'

function parse(text: string, fileName?: string): Conversation {
  const r = importer.parse(sniff(text), { fileName })
  if (!r.ok) throw new Error(`parse failed: ${r.error.message}`)
  return r.conversation
}
function roundTrip(c: Conversation): ParseResult {
  return importer.parse(sniff(importer.serialize(c)))
}
const expectRoundTrip = (c: Conversation) => {
  const r = roundTrip(c)
  expect(r.ok).toBe(true)
  if (r.ok) expect(digest(r.conversation)).toEqual(digest(c))
}

// One API response written as 4 lines (thinking, text, two parallel tool_use), results out of order.
const u1 = user('list files and count lines')
const a1 = assistant(
  'msg_1',
  { type: 'thinking', thinking: 'plan', signature: 'c2lnbmF0dXJl' },
  {
    input_tokens: 3,
    cache_read_input_tokens: 12000,
    cache_creation_input_tokens: 500,
    output_tokens: 8,
  },
  u1.uuid,
)
const a2 = assistant(
  'msg_1',
  { type: 'text', text: 'Running both.' },
  {
    input_tokens: 3,
    cache_read_input_tokens: 12000,
    cache_creation_input_tokens: 500,
    output_tokens: 8,
  },
  a1.uuid,
)
const a3 = assistant(
  'msg_1',
  { type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'ls' } },
  {
    input_tokens: 3,
    cache_read_input_tokens: 12000,
    cache_creation_input_tokens: 500,
    output_tokens: 8,
  },
  a2.uuid,
)
const progress = {
  type: 'progress',
  data: { type: 'hook_progress' },
  toolUseID: 'toolu_1',
  parentToolUseID: 'toolu_1',
  sessionId: 's1',
  parentUuid: a3.uuid,
  uuid: 'p1',
}
const a4 = assistant(
  'msg_1',
  { type: 'tool_use', id: 'toolu_2', name: 'Bash', input: { command: 'wc -l *' } },
  {
    input_tokens: 3,
    cache_read_input_tokens: 12000,
    cache_creation_input_tokens: 500,
    output_tokens: 120,
  },
  a3.uuid,
)
const r2 = user(
  [{ type: 'tool_result', tool_use_id: 'toolu_2', content: 'wc: denied', is_error: true }],
  { toolUseResult: 'Error: wc: denied' },
  a4.uuid,
)
const r1 = user(
  [
    {
      tool_use_id: 'toolu_1',
      type: 'tool_result',
      content: [
        { type: 'text', text: 'a.txt\n' },
        {
          type: 'image',
          source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' },
        },
      ],
    },
  ],
  { toolUseResult: { stdout: 'a.txt\n' } },
  a3.uuid,
)
const a5 = assistant(
  'msg_2',
  { type: 'text', text: 'Done.' },
  { input_tokens: 5, cache_read_input_tokens: 12500, output_tokens: 30 },
  r1.uuid,
)
const session = jsonl(
  {
    type: 'file-history-snapshot',
    messageId: u1.uuid,
    snapshot: { messageId: u1.uuid, trackedFileBackups: {} },
    isSnapshotUpdate: false,
  },
  u1,
  a1,
  a2,
  a3,
  progress,
  a4,
  r2,
  r1,
  a5,
  { type: 'summary', summary: 'Old title', leafUuid: 'x' },
  { type: 'summary', summary: 'Listing files', leafUuid: a5.uuid },
  { type: 'weird-new-type', sessionId: 's1', foo: 1 },
)

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
    expectRoundTrip(c)
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
    expectRoundTrip(c)
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
    expectRoundTrip(x)
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
    expectRoundTrip(x)
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
    const inline = parse(jsonl(user('main'), user('task prompt', { isSidechain: true })))
    expect(inline.messages.map((m) => m.sidechain)).toEqual([undefined, 'sidechain'])
    expect(inline.meta.notes?.join(' ')).toMatch(/1 sidechain/)
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
    expectRoundTrip(x)
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

describe('claude-code bad input', () => {
  it('loads the rest when the last line is truncated, with a positioned warning', () => {
    const text = jsonl(u1, a1) + '{"type":"user","message":{"role":"us'
    const r = importer.parse(sniff(text))
    expect(r.ok).toBe(true)
    if (!r.ok) return
    expect(r.conversation.messages).toHaveLength(2)
    expect(r.warnings[0]).toMatchObject({ line: 3 })
    expect(r.warnings[0]?.offset).toBeGreaterThan(text.lastIndexOf('\n', text.length - 5))
    expect(r.warnings[0]?.message).toMatch(/last line/)
  })
  it('warns about lines that are not objects or lack a message, and keeps them', () => {
    const text = jsonl(u1, 'just a string', { type: 'assistant', uuid: 'z' }, a5)
    const r = importer.parse(sniff(text))
    expect(r.ok && r.warnings.map((w) => w.line)).toEqual([2, 3])
    expect(r.ok && r.warnings[1]?.message).toMatch(/expected `message` to be an object/)
    if (r.ok) expect(importer.serialize(r.conversation).split('\n')[1]).toBe('"just a string"')
  })
  it('fails with a position and what was expected when nothing usable is left', () => {
    const none = importer.parse(sniff(jsonl({ type: 'summary', summary: 't', leafUuid: 'x' })))
    expect(none.ok).toBe(false)
    if (!none.ok)
      expect(none.error.message).toMatch(/expected Claude Code `user`\/`assistant` lines/)
    const text = importer.parse(sniff('not json at all'))
    expect(text.ok).toBe(false)
    if (!text.ok) expect(text.error).toMatchObject({ kind: 'parse_error', line: 1, offset: 0 })
  })
})

describe('claude-code serializer after edits', () => {
  it('writes changed, removed and added messages so they import back the same', () => {
    const c = parse(session)
    const [m0, m1, , m3, m4] = c.messages as Message[]
    if (!m0 || !m1 || !m3 || !m4) throw new Error('fixture')
    const edited: Conversation = {
      ...c,
      messages: [
        m0,
        { ...m1, parts: m1.parts.filter((p) => p.kind !== 'reasoning') },
        {
          id: 'summary-1',
          role: 'user',
          injected: true,
          parts: [{ kind: 'text', text: 'summary of dropped turns' }],
        },
        {
          ...m3,
          parts: m3.parts.map((p) =>
            p.kind === 'tool_result' ? { ...p, content: [{ kind: 'text', text: '[stub]' }] } : p,
          ),
        },
        m4,
      ],
    }
    const out = importer.serialize(edited)
    const r = importer.parse(sniff(out))
    expect(r.ok).toBe(true)
    if (!r.ok) return
    expect(digest(r.conversation)).toEqual(digest(edited))
    // The stubbed result no longer carries the full original output in toolUseResult.
    const stubbed = out.split('\n').find((l) => l.includes('[stub]')) ?? ''
    expect(stubbed).not.toMatch(/toolUseResult/)
    expect(importer.serialize(c)).toMatch(/toolUseResult/)
    // The dropped result's line is gone, so its children are re-attached to a line that exists.
    const uuids = new Set(
      out
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { uuid?: string }).uuid),
    )
    for (const l of out.trim().split('\n')) {
      const p = (JSON.parse(l) as { parentUuid?: string | null }).parentUuid
      if (typeof p === 'string') expect(uuids.has(p)).toBe(true)
    }
  })
})

const corpus = path.resolve(__dirname, '../../../../shared/corpus/claude-code')
const haveCorpus = existsSync(corpus)
if (!haveCorpus) console.log(`claude-code corpus not found at ${corpus}: corpus tests skipped`)

describe('claude-code corpus', () => {
  const files = haveCorpus ? readdirSync(corpus).filter((f) => f.endsWith('.jsonl')) : []
  it.skipIf(!haveCorpus).each(files)('%s', (file) => {
    const text = readFileSync(path.join(corpus, file), 'utf8')
    const input = sniff(text)
    const d = importer.detect(input, { fileName: file })
    expect(d?.format).toBe('claude-code')
    expect(d?.confidence).toBeGreaterThanOrEqual(0.6)
    const r = importer.parse(input, { fileName: file })
    expect(r.ok).toBe(true)
    if (!r.ok) return
    const c = r.conversation
    expect(c.messages.length).toBeGreaterThan(0)
    const parts = c.messages.flatMap((m) => m.parts)
    const calls = parts.filter((p) => p.kind === 'tool_call').length
    const results = parts.filter((p) => p.kind === 'tool_result').length
    // Independent count straight from the file: blocks and distinct assistant message ids.
    let uses = 0
    let resultBlocks = 0
    const ids = new Set<string>()
    for (const l of text.split('\n')) {
      if (!l.trim()) continue
      const v = JSON.parse(l) as { type?: string; message?: { id?: string; content?: unknown } }
      const content = Array.isArray(v.message?.content)
        ? (v.message.content as { type?: string }[])
        : []
      uses += content.filter((b) => b.type === 'tool_use').length
      resultBlocks += content.filter((b) => b.type === 'tool_result').length
      if (v.type === 'assistant' && v.message?.id) ids.add(v.message.id)
    }
    expect(calls).toBe(uses)
    expect(results).toBe(resultBlocks)
    expect(c.messages.filter((m) => m.role === 'assistant')).toHaveLength(ids.size)
    console.log(
      `${file}: ${c.messages.length} messages, ${calls} calls, ${results} results, ${r.warnings.length} warnings, ${c.markers.length} markers`,
    )
    expectRoundTrip(c)

    if (file.startsWith('happy-cli__')) {
      expect(c.markers.map((m) => m.origin)).toEqual(['claude-code-summary', 'claude-code-summary'])
      for (const m of c.markers) expect(c.messages[m.beforeIndex]?.injected).toBe(true)
    }
    if (file.startsWith('codemie__session-9eda1058')) {
      expect(c.meta.title).toBe('Cleared conversation history')
      expect(c.markers).toEqual([])
    }
    if (file.includes('agent-a485154')) {
      expect(c.messages.every((m) => m.sidechain === 'a485154')).toBe(true)
    }
  })
})
