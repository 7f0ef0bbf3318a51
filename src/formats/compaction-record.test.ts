import { describe, expect, it } from 'vitest'
import type { Conversation, Message } from '../engine/model.ts'
import { attachRecord, recordOf, takeFromJson, takeFromMarkdown } from './compaction-record.ts'
import { importTranscript, serializeConversation } from './index.ts'
import { sniff } from './sniff.ts'

const text = (t: string) => ({ kind: 'text' as const, text: t })
const compacted: Conversation = {
  meta: { format: 'openai-chat' },
  system: [],
  tools: [],
  markers: [],
  messages: [
    { id: 'a', role: 'user', parts: [text('hi')] },
    {
      id: 'b',
      role: 'assistant',
      parts: [text('[summary]')],
      summaryOf: { strategy: 'summarize', groups: ['g1', 'g2'] },
    },
    {
      id: 'c',
      role: 'user',
      parts: [
        {
          ...text('[COMPACTED]'),
          meta: { compactedBy: ['lip'], supersededBy: [{ messageId: 'd', part: 0 }] },
        },
      ],
    },
    { id: 'd', role: 'user', parts: [text('newest')] },
  ] satisfies Message[],
}

describe('the compaction_lab record', () => {
  const record = recordOf(compacted)

  it('describes summaries and replaced parts by position', () => {
    expect(record).toEqual({
      v: 1,
      roles: 'uauu',
      injected: [],
      sizes: [1, 1, 1, 1],
      summaries: [{ m: 1, strategy: 'summarize', groups: ['g1', 'g2'] }],
      parts: [{ m: 2, p: 0, by: ['lip'], newer: [{ m: 3, p: 0 }] }],
    })
    expect(
      recordOf({ ...compacted, messages: [{ id: 'x', role: 'user', parts: [text('x')] }] }),
    ).toBeNull()
  })

  it('is the last item of a JSON object, a JSON array, JSON Lines and Markdown', () => {
    for (const doc of ['{"a":1}', '{\n  "a": 1\n}\n', '{}', '[1,2]', '[\n  1\n]\n', '[]']) {
      const out = attachRecord(doc, 'json', record)
      const taken = takeFromJson(JSON.parse(out))
      expect(taken.value, doc).toEqual(JSON.parse(doc))
      expect(taken.record?.raw).toEqual(record)
    }
    const lines = attachRecord('{"a":1}\n{"b":2}\n', 'jsonl', record)
    const s = sniff(lines)
    expect(s.kind === 'jsonl' && s.lines.map((l) => l.value)).toEqual([{ a: 1 }, { b: 2 }])
    expect(s.record?.raw).toEqual(record)
    const md = attachRecord('# aider chat started at x\n\n#### hi\n', 'markdown', record)
    expect(md).toMatch(/\n<!-- compaction_lab \{.*\} -->\n$/)
    expect(takeFromMarkdown(md)).toEqual({
      text: '# aider chat started at x\n\n#### hi\n',
      record: { raw: record },
    })
  })

  it('cannot close the Markdown comment early', () => {
    const tricky = recordOf({
      ...compacted,
      messages: compacted.messages.map((m) =>
        m.summaryOf ? { ...m, summaryOf: { strategy: '--> <!--', groups: [] } } : m,
      ),
    })
    const md = attachRecord('text\n', 'markdown', tricky)
    expect(md.match(/-->/g)).toHaveLength(1)
    expect(takeFromMarkdown(md).record?.raw).toEqual(tricky)
  })

  it('round-trips through a format: summaries, stubs and their newer copies come back', () => {
    const again = importTranscript(serializeConversation(compacted))
    expect(again.result.ok).toBe(true)
    if (!again.result.ok) return
    const [, b, c, d] = again.result.conversation.messages
    expect(b?.summaryOf).toEqual({ strategy: 'summarize', groups: ['g1', 'g2'] })
    expect(c?.parts[0]?.meta).toMatchObject({
      compactedBy: ['lip'],
      supersededBy: [{ messageId: d?.id, part: 0 }],
    })
  })

  it('carries which messages are injected: an inserted summary must not change that', () => {
    // SWE-agent reads every user message after the first assistant one as an observation.
    const traj: Conversation = {
      meta: { format: 'swe-agent' },
      system: [],
      tools: [],
      markers: [],
      messages: [
        {
          id: 's',
          role: 'assistant',
          parts: [text('[summary]')],
          summaryOf: { strategy: 'summarize', groups: ['g0'] },
        },
        { id: 'u', role: 'user', parts: [text('We are solving this issue: …')] },
        { id: 'a', role: 'assistant', parts: [text('Looking at it.')] },
      ],
    }
    const again = importTranscript(serializeConversation(traj), { format: 'swe-agent' })
    expect(again.result.ok).toBe(true)
    if (again.result.ok)
      expect(again.result.conversation.messages.map((m) => m.injected ?? false)).toEqual([
        false,
        false,
        false,
      ])
  })

  it('splits again what the format merged (Codex: consecutive model outputs are one turn)', () => {
    const c = importTranscript(
      [
        '{"type":"session_meta","payload":{"id":"s"}}',
        '{"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"go"}]}}',
        '{"type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"one"}]}}',
        '{"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"more"}]}}',
        '{"type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"two"}]}}',
      ].join('\n'),
    )
    expect(c.result.ok).toBe(true)
    if (!c.result.ok) return
    // A compaction dropped the user message between the two replies and stubbed the second.
    const [u, a1, , a2] = c.result.conversation.messages as Message[]
    const stubbed: Message = {
      ...(a2 as Message),
      parts: [{ ...text('[stub]'), meta: { compactedBy: ['x'] } }],
    }
    const written = serializeConversation({
      ...c.result.conversation,
      messages: [u as Message, a1 as Message, stubbed],
    })
    const again = importTranscript(written)
    expect(again.result.ok && again.result.warnings).toEqual([])
    if (!again.result.ok) return
    const back = again.result.conversation.messages
    expect(back.map((m) => m.role)).toEqual(['user', 'assistant', 'assistant'])
    expect(back[2]?.parts[0]).toMatchObject({
      kind: 'text',
      text: '[stub]',
      meta: { compactedBy: ['x'] },
    })
    expect(new Set(back.map((m) => m.id)).size).toBe(3)
  })

  it('is left out, with a warning, when it does not match the messages read', () => {
    const written = serializeConversation(compacted)
    const doc = JSON.parse(written) as { messages: unknown[] }
    const edited = JSON.stringify({ ...doc, messages: doc.messages.slice(1) })
    const again = importTranscript(edited)
    expect(again.result.ok).toBe(true)
    if (!again.result.ok) return
    expect(again.result.conversation.messages.some((m) => m.summaryOf)).toBe(false)
    expect(again.result.warnings.map((w) => w.message)).toEqual([
      expect.stringMatching(
        /compaction_lab record .* was not applied: it describes 4 message\(s\) \(uauu\), the file holds 3 \(auu\)/,
      ),
    ])
    const garbage = importTranscript(written.replace(/"v":1/, '"v":7'))
    expect(garbage.result.warnings[0]?.message).toMatch(/not a valid record/)
  })
})
