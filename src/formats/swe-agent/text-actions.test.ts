import { describe, expect, it } from 'vitest'
import type { Conversation, Message, ToolResultPart } from '../../engine/model.ts'
import { run } from '../../engine/strategies/supersede-stale-results/fixtures.ts'
import { sniff } from '../sniff.ts'
import { importer } from './index.ts'
import { findTextAction } from './text-actions.ts'
import { sweTextTrajectory as v0 } from './text-actions.testing.ts'
import { detailOf } from '../../engine/compaction/sentence.ts'

function load(value: unknown): Conversation {
  const r = importer.parse(sniff(JSON.stringify(value)))
  if (!r.ok) throw new Error(r.error.message)
  return r.conversation
}

const mini = {
  trajectory_format: 'mini-swe-agent-1',
  info: {},
  messages: [
    { role: 'system', content: 'You run bash.' },
    { role: 'user', content: 'Task: list files' },
    { role: 'assistant', content: 'THOUGHT: list.\n\n```bash\nls -la src\n```' },
    { role: 'user', content: '<returncode>0</returncode>\n<output>\na.py\n</output>' },
    { role: 'assistant', content: 'Two blocks, ambiguous:\n```bash\nls\n```\n```bash\npwd\n```' },
    { role: 'user', content: 'Please always provide EXACTLY ONE action.' },
  ],
}

describe('text actions: finding the fenced command', () => {
  it('SWE-agent 0.x: the block whose body is the `action`', () => {
    const f = findTextAction('a\n```\nls\n```\nb\n```\npwd\n```', 'pwd\n')
    expect(f).toMatchObject({ before: 'a\n```\nls\n```\nb\n', fence: '```\npwd\n```', after: '' })
    expect(findTextAction('no fence here', 'ls')).toBeNull()
    expect(findTextAction('```\nls\n```', '   ')).toBeNull()
  })
  it('mini-swe-agent: exactly one ```bash block, else nothing', () => {
    expect(findTextAction('x\n```bash\nls\n```', undefined)?.command).toBe('ls')
    expect(findTextAction('```bash\nls\n```\n```bash\npwd\n```', undefined)).toBeNull()
    expect(findTextAction('```python\nprint(1)\n```', undefined)).toBeNull()
  })
})

describe('text actions: SWE-agent 0.x trajectories', () => {
  const conv = load(v0)
  const [, , a1, o1, a2, o2, last] = conv.messages as Message[]

  it('splits each reply into text, a derived bash call and text; observations become results', () => {
    expect(a1?.parts.map((p) => p.kind)).toEqual(['text', 'tool_call', 'text'])
    expect(a1?.parts[0]).toMatchObject({ text: 'Look at the file.\n\n' })
    expect(a1?.parts[1]).toMatchObject({ name: 'bash', derivedFrom: 'text' })
    expect(o1?.role).toBe('tool')
    expect(o2?.parts[0]).toMatchObject({ kind: 'tool_result', derivedFrom: 'text' })
    // The last action has no observation: a pending call, not a guess.
    expect(last?.parts.some((p) => p.kind === 'tool_call')).toBe(true)
    expect(a2?.parts.map((p) => p.kind)).toEqual(['text', 'tool_call'])
  })

  it('writes back the original JSON exactly', () => {
    expect(JSON.parse(importer.serialize(conv))).toEqual(v0)
  })

  it('the engine compacts them: the first `cat` is superseded by the second', async () => {
    const r = await run(conv, { tokenThreshold: 0 })
    const stubbed = r.decisions.filter((d) => d.kind === 'stub')
    expect(stubbed).toHaveLength(1)
    expect(detailOf(stubbed[0])).toContain('src/x.py')
    expect(r.resultText(o1?.id ?? '')).toContain('[COMPACTED]')
  })

  it('a compacted result is written into the observation text; replies stay as written', () => {
    const stub = '[COMPACTED] earlier output removed'
    const messages = conv.messages.map((m) =>
      m === o1
        ? {
            ...m,
            parts: m.parts.map((p) =>
              p.kind === 'tool_result'
                ? ({ ...p, content: [{ kind: 'text', text: stub }] } satisfies ToolResultPart)
                : p,
            ),
          }
        : m,
    )
    const out = JSON.parse(importer.serialize({ ...conv, messages })) as typeof v0
    expect(out.history[3]).toEqual({ role: 'user', content: stub, agent: 'primary' })
    expect(out.history.filter((_, i) => i !== 3)).toEqual(v0.history.filter((_, i) => i !== 3))
    // And it reads back as the same derived pair.
    const again = load(out)
    expect(again.messages[3]?.parts[0]).toMatchObject({ kind: 'tool_result', derivedFrom: 'text' })
  })

  it('an action not found in the text, or a demo after the reply, is not derived', () => {
    const odd = load({
      trajectory: [],
      history: [
        { role: 'user', content: 'ISSUE' },
        { role: 'assistant', content: 'I will look (no fence).', action: 'ls' },
        { role: 'user', content: 'a.py' },
        { role: 'assistant', content: '```\nls\n```', action: 'ls' },
        { role: 'user', content: 'demo', is_demo: true },
      ],
    })
    const kinds = odd.messages.flatMap((m) => m.parts.map((p) => p.kind))
    expect(kinds.filter((k) => k === 'tool_result')).toHaveLength(0)
    expect(odd.messages[1]?.parts.every((p) => p.kind === 'text')).toBe(true)
  })
})

describe('text actions: mini-swe-agent', () => {
  const conv = load(mini)
  it('derives the single ```bash block and reads the next user message as its output', () => {
    expect(conv.messages.map((m) => m.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'assistant',
      'user',
    ])
    const call = conv.messages[2]?.parts[1]
    expect(call?.kind === 'tool_call' && call.args).toEqual({ command: 'ls -la src' })
    // Two blocks: ambiguous, kept as text; its answer stays a user message.
    expect(conv.messages[4]?.parts.every((p) => p.kind === 'text')).toBe(true)
  })
  it('round-trips exactly', () => {
    expect(JSON.parse(importer.serialize(conv))).toEqual(mini)
  })
})
