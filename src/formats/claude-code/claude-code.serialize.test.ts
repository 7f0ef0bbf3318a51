/** The serializer after edits, and what it keeps as the file had it (issue 10 fuzz findings). */
import { describe, expect, it } from 'vitest'
import type { Conversation, Message } from '../../engine/model.ts'
import { sniff } from '../sniff.ts'
import { digest } from '../testing.ts'
import { importer } from './index.ts'
import { jsonl, parse, session } from './fixtures.mts'

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

describe('claude-code: what the serializer keeps as it was (issue 10 fuzz findings)', () => {
  const userLine = (uuid: string, parentUuid: string | null, content: unknown) => ({
    type: 'user',
    uuid,
    parentUuid,
    sessionId: 's',
    message: { role: 'user', content },
  })

  it('a session cut from a longer one keeps its link to a parent that is not in the file', () => {
    const text = jsonl(
      userLine('u2', 'u1-not-in-this-file', 'second prompt'),
      userLine('u3', 'u2', 'third prompt'),
    )
    const c = parse(text)
    expect(importer.serialize(c)).toBe(text)
  })

  it('a malformed (numeric) tool_use_id is written back, not dropped', () => {
    const text = jsonl(
      userLine('u1', null, 'hi'),
      userLine('u2', 'u1', [{ type: 'tool_result', tool_use_id: 599396, content: 'out' }]),
    )
    expect(importer.serialize(parse(text))).toBe(text)
  })
})

describe('claude-code: a message written anew keeps its place (long-fuzz finding, issue 10)', () => {
  it('after an assistant message whose lines are apart in the file', () => {
    const base = { sessionId: 's', isSidechain: false }
    const text = jsonl(
      {
        ...base,
        type: 'user',
        uuid: 'u1',
        parentUuid: null,
        message: { role: 'user', content: 'go' },
      },
      {
        ...base,
        type: 'assistant',
        uuid: 'x1',
        parentUuid: 'u1',
        message: { id: 'X', role: 'assistant', content: [{ type: 'text', text: 'first block' }] },
      },
      {
        ...base,
        type: 'assistant',
        uuid: 'y1',
        parentUuid: 'x1',
        message: { id: 'Y', role: 'assistant', content: [{ type: 'text', text: 'other reply' }] },
      },
      {
        ...base,
        type: 'assistant',
        uuid: 'x2',
        parentUuid: 'y1',
        message: { id: 'X', role: 'assistant', content: [{ type: 'text', text: 'second block' }] },
      },
    )
    const c = parse(text)
    expect(c.messages.map((m) => m.id)).toEqual(['u1', 'X', 'Y'])
    const summary: Message = { id: 'S', role: 'user', parts: [{ kind: 'text', text: 'a note' }] }
    const edited: Conversation = {
      ...c,
      messages: [c.messages[0], c.messages[1], summary, c.messages[2]] as Message[],
    }
    const again = parse(importer.serialize(edited))
    expect(
      again.messages.map((m) =>
        m.parts.map((p) => (p.kind === 'text' ? p.text : p.kind)).join('+'),
      ),
    ).toEqual(['go', 'first block+second block', 'a note', 'other reply'])
  })
})
