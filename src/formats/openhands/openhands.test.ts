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

const response = (id: string, content: string | null, calls: [string, string, string][]) => ({
  id,
  model: 'claude-x',
  choices: [
    {
      message: {
        role: 'assistant',
        content,
        tool_calls: calls.map(([cid, name, args]) => ({
          id: cid,
          type: 'function',
          function: { name, arguments: args },
        })),
      },
    },
  ],
  usage: {
    prompt_tokens: 100,
    completion_tokens: 7,
    cache_read_input_tokens: 60,
    cache_creation_input_tokens: 30,
  },
})

const parallel = response('resp_1', 'Two commands.', [
  ['call_a', 'execute_bash', '{"command": "ls"}'],
  ['call_b', 'execute_bash', '{"command": "pwd"'],
])
const tcm = (cid: string, name: string, model_response: unknown) => ({
  function_name: name,
  tool_call_id: cid,
  model_response,
  total_calls_in_response: 2,
})

const events = [
  {
    id: 0,
    source: 'agent',
    action: 'system',
    args: {
      content: 'You are OpenHands',
      tools: [{ type: 'function', function: { name: 'execute_bash', description: 'run' } }],
    },
  },
  {
    id: 1,
    source: 'environment',
    observation: 'agent_state_changed',
    content: '',
    extras: { agent_state: 'running' },
  },
  {
    id: 2,
    source: 'user',
    action: 'message',
    message: 'do it',
    args: { content: 'do it', image_urls: ['data:image/png;base64,AAAA'] },
  },
  { id: 3, source: 'user', action: 'recall', args: { query: 'do it' } },
  {
    id: 4,
    source: 'environment',
    observation: 'recall',
    cause: 3,
    content: 'repo instructions: be nice',
    extras: {},
  },
  {
    id: 5,
    source: 'agent',
    action: 'run',
    args: { command: 'ls', thought: 'Two commands.' },
    tool_call_metadata: tcm('call_a', 'execute_bash', parallel),
  },
  {
    id: 6,
    source: 'agent',
    observation: 'run',
    cause: 5,
    content: 'a.txt',
    tool_call_metadata: tcm('call_a', 'execute_bash', parallel),
  },
  {
    id: 7,
    source: 'agent',
    action: 'run',
    args: { command: 'pwd', thought: '' },
    tool_call_metadata: tcm('call_b', 'execute_bash', parallel),
  },
  { id: 8, source: 'agent', observation: 'error', cause: 7, content: 'bad json', extras: {} },
  {
    id: 9,
    source: 'agent',
    action: 'condensation',
    args: { forgotten_event_ids: [5, 6], summary: 'ran ls' },
  },
  { id: 10, source: 'agent', action: 'think', args: { thought: 'hmm' } },
  {
    id: 11,
    source: 'agent',
    observation: 'think',
    cause: 10,
    content: 'Your thought has been logged.',
  },
  { id: 12, source: 'agent', action: 'message', message: 'Done.', args: { content: 'Done.' } },
  { id: 13, source: 'agent', observation: 'null', cause: 12, content: '', extras: {} },
]

describe('openhands detection', () => {
  it('recognises V0 events by action/observation + source', () => {
    const d = importer.detect(sniff(JSON.stringify(events)))
    expect(d?.format).toBe('openhands')
    expect(d?.confidence).toBeGreaterThanOrEqual(0.9)
    expect(d?.evidence[0]).toMatch(/14\/14/)
  })
  it('does not claim OpenAI chat, LangChain or AI-SDK arrays', () => {
    expect(importer.detect(sniff(JSON.stringify([{ role: 'user', content: 'x' }])))).toBeNull()
    expect(importer.detect(sniff(JSON.stringify([{ type: 'human', content: 'x' }])))).toBeNull()
    const mostlyOther = [
      { role: 'user', content: 'x' },
      { role: 'user', content: 'y' },
      { action: 'run', source: 'agent' },
    ]
    expect(importer.detect(sniff(JSON.stringify(mostlyOther)))?.confidence ?? 0).toBeLessThan(0.6)
  })
})

describe('openhands V0 parsing', () => {
  const conv = load(events)
  it('rebuilds the LLM view', () => {
    expect(conv.messages.map((m) => `${m.id}:${m.role}${m.injected ? '*' : ''}`)).toEqual([
      '0:system',
      '2:user',
      '4:user*',
      '5:assistant',
      '6:tool',
      '8:tool',
      '10:assistant',
      '11:tool',
      '12:assistant',
    ])
    expect(conv.tools.map((t) => t.name)).toEqual(['execute_bash'])
    expect(conv.messages[1]?.parts.map((p) => p.kind)).toEqual(['text', 'image'])
  })
  it('groups parallel calls of one model response into one assistant message', () => {
    const a = conv.messages[3]
    expect(
      a?.parts.map((p) => (p.kind === 'tool_call' ? `${p.callId}:${p.argsRaw}` : p.kind)),
    ).toEqual(['text', 'call_a:{"command": "ls"}', 'call_b:{"command": "pwd"'])
    expect(a?.usage).toMatchObject({
      contextTokens: 100,
      cacheReadTokens: 60,
      cacheWriteTokens: 30,
      inputTokens: 10,
    })
    expect(a?.model).toBe('claude-x')
  })
  it('takes the call id from the action when the observation has no metadata; errors flagged', () => {
    const r = conv.messages[5]?.parts[0]
    expect(r?.kind === 'tool_result' && [r.callId, r.isError]).toEqual(['call_b', true])
    const think = conv.messages[6]?.parts.find((p) => p.kind === 'tool_call')
    expect(think?.kind === 'tool_call' && [think.callId, think.name]).toEqual([null, 'think'])
  })
  it('keeps condensation as a marker and noise out of the messages', () => {
    expect(conv.markers).toEqual([
      expect.objectContaining({
        origin: 'openhands-condensation',
        beforeIndex: 6,
        summary: 'ran ls',
      }),
    ])
    expect(conv.meta.notes?.[0]).toMatch(/4 kept as non-model/)
  })
  it('round-trips (events regrouped, nothing lost)', () => {
    roundTrip(importer, conv)
    const out = JSON.parse(importer.serialize(conv)) as { id: number }[]
    expect(out.map((e) => e.id).sort((x, y) => x - y)).toEqual(events.map((e) => e.id))
  })
  it('serializes messages built elsewhere (no source events)', () => {
    const built: Conversation = {
      ...conv,
      source: { version: 0, noise: [] },
      messages: conv.messages.map((m) => ({ ...m, source: undefined })),
    }
    roundTrip(importer, built)
  })
})

describe('openhands V1 events', () => {
  const v1 = [
    {
      kind: 'SystemPromptEvent',
      id: 'e1',
      source: 'agent',
      system_prompt: { type: 'text', text: 'sys' },
      tools: [],
    },
    {
      kind: 'MessageEvent',
      id: 'e2',
      source: 'user',
      llm_message: { role: 'user', content: [{ type: 'text', text: 'hi' }] },
    },
    {
      kind: 'ActionEvent',
      id: 'e3',
      source: 'agent',
      thought: [{ type: 'text', text: 'go' }],
      tool_name: 'bash',
      tool_call_id: 't1',
      tool_call: { id: 't1', name: 'bash', arguments: '{"c":1}' },
      llm_response_id: 'r1',
      action: { kind: 'BashAction' },
    },
    {
      kind: 'ActionEvent',
      id: 'e4',
      source: 'agent',
      thought: [],
      tool_name: 'bash',
      tool_call_id: 't2',
      tool_call: { id: 't2', name: 'bash', arguments: '{"c":2}' },
      llm_response_id: 'r1',
      action: {},
    },
    {
      kind: 'ObservationEvent',
      id: 'e5',
      source: 'environment',
      tool_name: 'bash',
      tool_call_id: 't2',
      action_id: 'e4',
      observation: { content: [{ type: 'text', text: 'two' }] },
    },
    {
      kind: 'AgentErrorEvent',
      id: 'e6',
      source: 'agent',
      tool_name: 'bash',
      tool_call_id: 't1',
      error: 'nope',
    },
    { kind: 'ConversationStateUpdateEvent', id: 'e7', key: 'x', value: 1 },
    { kind: 'Condensation', id: 'e8', forgotten_event_ids: ['e3'], summary: 's' },
    { kind: 'CondensationSummaryEvent', id: 'e9', summary: 'we did things' },
  ]
  it('detects and parses the SDK shape', () => {
    const d = importer.detect(sniff(JSON.stringify(v1)))
    expect(d?.confidence).toBeGreaterThanOrEqual(0.6)
    const conv = load(v1)
    expect(conv.messages.map((m) => `${m.id}:${m.role}`)).toEqual([
      'e1:system',
      'e2:user',
      'e3:assistant',
      'e5:tool',
      'e6:tool',
      'e9:user',
    ])
    expect(conv.messages[2]?.parts.filter((p) => p.kind === 'tool_call')).toHaveLength(2)
    expect(conv.markers[0]?.origin).toBe('openhands-condensation')
    roundTrip(importer, conv)
  })
})

describe('openhands bad input', () => {
  it('warns on non-events and fails on nothing usable', () => {
    const r = importer.parse(
      sniff(
        '[{"id": 1, "source": "user", "action": "message", "args": {"content": "x"}}, {"id": 2}]',
      ),
    )
    expect(r.ok).toBe(true)
    expect(r.warnings[0]).toMatchObject({ line: 1 })
    expect(r.warnings[0]?.message).toMatch(
      /events\[1\]: expected an event with `action` or `observation`/,
    )
    const none = importer.parse(
      sniff('[{"id": 1, "source": "environment", "observation": "agent_state_changed"}]'),
    )
    expect(none.ok).toBe(false)
    const notJson = importer.parse(sniff('[{"id": 1,'))
    expect(notJson.ok).toBe(false)
    if (!notJson.ok)
      expect(notJson.error.message).toMatch(/expected a JSON array of OpenHands events/)
  })
})

const corpus = corpusFiles('openhands')
if (!corpus.present) console.log(corpus.skipMessage)

describe('openhands corpus', () => {
  it.skipIf(!corpus.present)('loads every corpus file', () => {
    expect(corpus.files.length).toBeGreaterThan(0)
    for (const f of corpus.files) {
      const { name: file, text } = f
      const { conversation: conv, warnings } = importCorpusFile(importer, f, { fileName: file })
      const parts = conv.messages.flatMap((m) => m.parts)
      const calls = parts.filter((p) => p.kind === 'tool_call').length
      const results = parts.filter((p) => p.kind === 'tool_result').length
      console.log(
        `openhands ${file}: ${conv.messages.length} messages, ${calls} tool calls, ${results} tool results, ${warnings.length} warnings`,
      )
      const raw = JSON.parse(text) as {
        action?: string
        observation?: string
        tool_call_metadata?: unknown
      }[]
      // Every action carrying tool_call_metadata is a call; every observation carrying it a result.
      expect(calls).toBe(raw.filter((e) => e.action && e.tool_call_metadata).length)
      expect(results).toBe(raw.filter((e) => e.observation && e.tool_call_metadata).length)
      roundTrip(importer, conv)
      expect(JSON.parse(importer.serialize(conv))).toEqual(raw)
    }
  })
})
