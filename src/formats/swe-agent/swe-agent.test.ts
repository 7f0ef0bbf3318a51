import { describe, expect, it } from 'vitest'
import type { Conversation } from '../../engine/model.ts'
import { sniff } from '../sniff.ts'
import { importer } from './index.ts'
import { corpusFiles, importCorpusFile, roundTrip } from '../testing-corpus.mts'

function load(value: unknown): Conversation {
  const r = importer.parse(sniff(JSON.stringify(value)))
  if (!r.ok) throw new Error(r.error.message)
  return r.conversation
}

const v0 = {
  environment: 'swe_main',
  trajectory: [{ action: 'ls\n', observation: 'a.py', response: 'r', thought: 't', state: '{}' }],
  history: [
    { role: 'system', content: 'SETTING: you are a programmer', agent: 'primary' },
    { role: 'user', content: 'Here is a demonstration', is_demo: true, agent: 'primary' },
    { role: 'user', content: 'ISSUE: fix the bug', agent: 'primary' },
    {
      role: 'assistant',
      content: 'Let us look.\n```\nls\n```',
      thought: 'Let us look.',
      action: 'ls\n',
      agent: 'primary',
    },
    { role: 'user', content: 'a.py\r\n(Open file: n/a)', agent: 'primary' },
  ],
  info: { exit_status: 'submitted', model_stats: { total_cost: 0.5, api_calls: 1 } },
}

const v1 = {
  trajectory: [],
  history: [
    { message_type: 'system_prompt', role: 'system', content: 'SETTING', agent: 'main' },
    { message_type: 'observation', role: 'user', content: 'ISSUE', agent: 'main' },
    {
      message_type: 'action',
      role: 'assistant',
      content: 'Two things at once.',
      thought: 'Two things at once.',
      action: 'ls',
      agent: 'main',
      tool_calls: [
        {
          function: { arguments: '{"command":"ls"}', name: 'bash' },
          id: 'call_a',
          type: 'function',
        },
        {
          function: { arguments: '{"command": "pwd"', name: 'bash' },
          id: 'call_b',
          type: 'function',
        },
        { function: { arguments: '', name: 'submit' }, id: '', type: 'function' },
      ],
    },
    {
      message_type: 'observation',
      role: 'tool',
      content: 'out b',
      agent: 'main',
      tool_call_ids: ['call_b'],
    },
    {
      message_type: 'observation',
      role: 'tool',
      content: 'shared',
      agent: 'main',
      tool_call_ids: ['call_a', ''],
    },
    {
      message_type: 'observation',
      role: 'tool',
      content: [{ type: 'text', text: 'blk' }],
      agent: 'main',
    },
  ],
  info: { exit_status: 'exit_cost', model_stats: { tokens_sent: 10 } },
  replay_config: { agent: { model: { name: 'gpt-4o' } } },
}

describe('swe-agent detection', () => {
  it('needs history + trajectory for structural certainty', () => {
    const d = importer.detect(sniff(JSON.stringify(v0)))
    expect(d).toMatchObject({ format: 'swe-agent' })
    expect(d?.confidence).toBeGreaterThanOrEqual(0.9)
    expect(d?.evidence.join(' ')).toMatch(/0\.x/)
    expect(importer.detect(sniff(JSON.stringify(v1)))?.evidence.join(' ')).toMatch(/1\.x/)
  })

  it('does not claim near misses', () => {
    expect(
      importer.detect(sniff(JSON.stringify({ messages: [{ role: 'user', content: 'x' }] }))),
    ).toBeNull()
    expect(importer.detect(sniff(JSON.stringify([{ role: 'user', content: 'x' }])))).toBeNull()
    const weak = importer.detect(sniff(JSON.stringify({ history: ['a', 'b'] })))
    expect(weak?.confidence ?? 0).toBeLessThan(0.6)
  })

  it('reads mini-swe-agent files', () => {
    const mini = {
      info: {},
      messages: [{ role: 'user', content: 'x' }],
      trajectory_format: 'mini-swe-agent-1',
    }
    expect(importer.detect(sniff(JSON.stringify(mini)))?.confidence).toBeGreaterThanOrEqual(0.9)
    const conv = load(mini)
    expect(conv.messages).toHaveLength(1)
    roundTrip(importer, conv)
  })
})

describe('swe-agent 0.x', () => {
  const conv = load(v0)
  it('derives the fenced action as a call and its observation as the result; demos stay injected', () => {
    expect(conv.messages.map((m) => [m.role, m.injected ?? false])).toEqual([
      ['system', false],
      ['user', true],
      ['user', false],
      ['assistant', false],
      ['tool', false],
    ])
    const call = conv.messages[3]?.parts[1]
    expect(call).toMatchObject({ kind: 'tool_call', name: 'bash', derivedFrom: 'text' })
    expect(call?.kind === 'tool_call' && call.args).toEqual({ command: 'ls' })
    expect(conv.messages[4]?.parts[0]).toMatchObject({
      kind: 'tool_result',
      callId: call?.kind === 'tool_call' ? call.callId : '?',
      derivedFrom: 'text',
    })
    expect(conv.meta.notes?.join(' ')).toMatch(/exit_status: submitted/)
    expect(conv.meta.notes?.join(' ')).toMatch(/1 tool call\(s\) derived from text actions/)
  })
  it('round-trips byte-compatible JSON', () => {
    roundTrip(importer, conv)
    expect(JSON.parse(importer.serialize(conv))).toEqual(v0)
  })
})

describe('swe-agent 1.x', () => {
  const conv = load(v1)
  it('reads parallel tool_calls with raw argument strings (broken and empty ones too)', () => {
    const calls = conv.messages[2]?.parts.filter((p) => p.kind === 'tool_call') ?? []
    expect(calls.map((c) => c.kind === 'tool_call' && [c.callId, c.argsRaw])).toEqual([
      ['call_a', '{"command":"ls"}'],
      ['call_b', '{"command": "pwd"'],
      ['', ''],
    ])
    expect(calls[1]?.kind === 'tool_call' && calls[1].argsError).toBeTruthy()
  })
  it('emits one tool_result per id (results out of order, shared content, no ids)', () => {
    const results = conv.messages
      .slice(3)
      .map((m) => m.parts.map((p) => p.kind === 'tool_result' && p.callId))
    expect(results).toEqual([['call_b'], ['call_a', ''], [null]])
    expect(conv.meta.notes?.join(' ')).toMatch(/answer several tool_call_ids/)
    expect(conv.meta.model).toBe('gpt-4o')
  })
  it('round-trips, writing a shared observation once', () => {
    roundTrip(importer, conv)
    expect(JSON.parse(importer.serialize(conv))).toEqual(v1)
  })
})

describe('swe-agent bad input', () => {
  it('fails with position and expectation, warns on bad items', () => {
    const r = importer.parse(
      sniff('{"trajectory": [], "history": [1, {"role": "user", "content": "x"}]}'),
    )
    expect(r.ok).toBe(true)
    expect(r.warnings[0]?.message).toMatch(/history\[0\]: expected an object with `role`/)
    const none = importer.parse(sniff('{"trajectory": [], "history": []}'))
    expect(none.ok).toBe(false)
    const broken = importer.parse(sniff('{"trajectory": [], "history": [}'))
    expect(broken.ok).toBe(false)
    if (!broken.ok) expect(broken.error.line).toBe(1)
  })
})

const corpus = corpusFiles('swe-agent')
if (!corpus.present) console.log(corpus.skipMessage)

describe('swe-agent corpus', () => {
  it.skipIf(!corpus.present)('loads every corpus file', () => {
    expect(corpus.files.length).toBeGreaterThan(0)
    for (const f of corpus.files) {
      const { name: file, text } = f
      const { conversation: conv, warnings } = importCorpusFile(importer, f, { fileName: file })
      const parts = conv.messages.flatMap((m) => m.parts)
      const calls = parts.filter((p) => p.kind === 'tool_call').length
      const results = parts.filter((p) => p.kind === 'tool_result').length
      console.log(
        `swe-agent ${file}: ${conv.messages.length} messages, ${calls} tool calls, ${results} tool results, ${warnings.length} warnings`,
      )
      const raw = JSON.parse(text) as {
        history: { tool_calls?: unknown[]; tool_call_ids?: unknown[] }[]
      }
      const derived = parts.filter(
        (p) => (p.kind === 'tool_call' || p.kind === 'tool_result') && p.derivedFrom === 'text',
      )
      const derivedCalls = derived.filter((p) => p.kind === 'tool_call').length
      const derivedResults = derived.length - derivedCalls
      console.log(`  ${derivedCalls} calls / ${derivedResults} results derived from text`)
      expect(conv.messages.length).toBe(raw.history.length)
      expect(calls - derivedCalls).toBe(
        raw.history.reduce((n, h) => n + (h.tool_calls?.length ?? 0), 0),
      )
      expect(results - derivedResults).toBe(
        raw.history.reduce((n, h) => n + (h.tool_call_ids?.length ?? 0), 0),
      )
      // A 0.x trajectory (no recorded calls) acts through text: every action but the last is answered.
      if (raw.history.every((h) => h.tool_calls === undefined)) {
        expect(derivedCalls).toBeGreaterThan(0)
        expect(derivedResults).toBeGreaterThanOrEqual(derivedCalls - 1)
      }
      roundTrip(importer, conv)
      expect(JSON.parse(importer.serialize(conv))).toEqual(raw)
    }
  })
})
