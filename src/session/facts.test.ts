import { describe, expect, it } from 'vitest'
import { estimateCounter } from '../engine/tokens/index.ts'
import { importTranscript } from '../formats/index.ts'
import { presetConfig } from '../config/presets.ts'
import { sweTextTrajectory } from '../formats/swe-agent/text-actions.testing.ts'
import type { Conversation } from '../engine/model.ts'
import { groupFacts, offenderGroups } from './facts.ts'
import { groupingOf } from './grouping.ts'
import { PreparedCache, runSummary } from './run.ts'
import { prepare } from '../engine/compaction/prepared.ts'

function chat() {
  const body = {
    model: 'gpt-4o',
    messages: [
      { role: 'system', content: 'You are a coding agent.' },
      { role: 'user', content: 'Look at src/a.ts' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'c1',
            type: 'function',
            function: { name: 'read_file', arguments: JSON.stringify({ path: 'src/a.ts' }) },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'export const a = 1' },
      { role: 'assistant', content: 'Done.' },
    ],
  }
  const { result } = importTranscript(JSON.stringify(body), { fileName: 'chat.json' })
  if (!result.ok) throw new Error(result.error.message)
  return result.conversation
}

/** The facts the load reply carries for `conversation` (the run reply leaves them out). */
const factsOf = (conversation: Conversation) => groupFacts(conversation, groupingOf(conversation))

describe('per-group facts of a conversation', () => {
  it('names role, tools, resource, turn and first message of every group', async () => {
    const conversation = chat()
    const outcome = await runSummary(conversation, estimateCounter, null, {
      preset: 'recommended',
      cache: new PreparedCache(),
    })
    if (outcome.kind !== 'ran') throw new Error(outcome.kind)
    const g = factsOf(conversation)
    expect(g.roles).toHaveLength(outcome.summary.groups.ids.length)
    const tool = g.tools.findIndex((t) => t === 'read_file')
    expect(tool).toBeGreaterThanOrEqual(0)
    expect(g.resources[tool]).toContain('src/a.ts')
    expect(g.roles[tool]).toBe('assistant')
    expect(g.turns[tool]).toBe(1)
    expect(g.messageCounts[tool]).toBe(2)
    const user = g.roles.indexOf('user')
    expect(g.tools[user]).toBe('')
    expect(g.firstMessage[user]).toBeGreaterThanOrEqual(0)
    expect(outcome.summary.upstream).toEqual([])
  })

  it('puts every token-level trigger of an enabled step on the token axis', async () => {
    const outcome = await runSummary(chat(), estimateCounter, null, {
      preset: 'recommended',
      cache: new PreparedCache(),
    })
    if (outcome.kind !== 'ran') throw new Error(outcome.kind)
    const config = presetConfig('recommended')
    const usable = outcome.summary.tokens.usable
    const first = config.pipeline[0]?.trigger?.conditions[0]
    if (first?.kind !== 'window_fraction') throw new Error('recommended starts with a fraction')
    expect(outcome.summary.triggers[0]).toEqual({
      step: 0,
      strategy: config.pipeline[0]?.strategy,
      tokens: Math.round(first.over * usable),
    })
  })
})

describe('offenderGroups', () => {
  it('maps group ids, message ids, #indexes and part keys to group ids, once each', () => {
    const conversation = chat()
    const prepared = prepare(conversation, estimateCounter)
    const [system, user, tool] = prepared.grouping.groups
    if (!system || !user || !tool) throw new Error('expected three groups')
    const toolMessage = conversation.messages[tool.messages[1] ?? -1]
    if (!toolMessage) throw new Error('no tool message')
    expect(
      offenderGroups(prepared, [
        user.id,
        toolMessage.id,
        `${toolMessage.id}:0`,
        `${tool.id}:2:0`,
        `#${user.messages[0]}`,
        'total',
        'projection',
      ]),
    ).toEqual([user.id, tool.id])
  })
})

describe('group facts cache', () => {
  it('computes once per conversation, shared by every preparation of it', () => {
    const conversation = chat()
    const first = factsOf(conversation)
    // Each counter prepares the conversation again; its grouping (and facts) stay the one.
    const prepared = prepare(conversation, estimateCounter, { grouping: groupingOf(conversation) })
    expect(groupFacts(conversation, prepared.grouping)).toBe(first)
    expect(factsOf(conversation).turns).toBe(first.turns)
  })
})

describe('issue 12 facts', () => {
  it('a write_stdin shows its session command; a call read from text is marked in the tools', () => {
    const call = (id: string, name: string, args: unknown) => ({
      role: 'assistant',
      content: null,
      tool_calls: [{ id, type: 'function', function: { name, arguments: JSON.stringify(args) } }],
    })
    const body = {
      model: 'gpt-4o',
      messages: [
        { role: 'user', content: 'run the tests' },
        call('c1', 'exec_command', { cmd: 'npm test' }),
        { role: 'tool', tool_call_id: 'c1', content: 'Process running with session ID 4\n…' },
        call('c2', 'write_stdin', { session_id: 4, chars: '' }),
        { role: 'tool', tool_call_id: 'c2', content: 'ok 3 tests' },
      ],
    }
    const { result } = importTranscript(JSON.stringify(body))
    if (!result.ok) throw new Error(result.error.message)
    const facts = factsOf(result.conversation)
    expect(facts.resources.filter((r) => r.startsWith('npm test'))).toHaveLength(2)
    const swe = importTranscript(JSON.stringify(sweTextTrajectory))
    if (!swe.result.ok) throw new Error(swe.result.error.message)
    const sweFacts = factsOf(swe.result.conversation)
    expect(sweFacts.tools).toContain('bash (from text)')
  })
})
