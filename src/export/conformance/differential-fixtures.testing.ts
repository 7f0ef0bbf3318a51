/**
 * Hand-written agent transcripts for the LangChain differential check, so it runs without the
 * shared corpus: several user turns, single and parallel tool calls, results of a few hundred
 * tokens (the estimate counter makes thresholds of a few thousand tokens reachable).
 */
import type { Conversation, Message, Part } from '../../engine/model.ts'

const lorem = (seed: string, words: number) =>
  Array.from({ length: words }, (_, i) => `${seed}${(i * 7919) % 997}`).join(' ')

function call(id: string, name: string, args: object): Part {
  return { kind: 'tool_call', callId: id, name, argsRaw: JSON.stringify(args), args }
}

function result(id: string, name: string, text: string): Message {
  return {
    id: `r-${id}`,
    role: 'tool',
    parts: [
      { kind: 'tool_result', callId: id, name, content: [{ kind: 'text', text }], isError: false },
    ],
  }
}

/** A coding session: `turns` user turns, each reading files (some in parallel) then answering. */
export function codingSession(turns: number, resultWords = 160): Conversation {
  const messages: Message[] = []
  for (let t = 0; t < turns; t++) {
    messages.push({
      id: `u${t}`,
      role: 'user',
      parts: [{ kind: 'text', text: `Task ${t}: ${lorem('ask', 12)}` }],
    })
    const parallel = t % 2 === 1
    const ids = parallel ? [`c${t}a`, `c${t}b`] : [`c${t}a`]
    messages.push({
      id: `a${t}`,
      role: 'assistant',
      parts: [
        { kind: 'text', text: `Reading for task ${t}.` },
        ...ids.map((id, i) =>
          call(id, i === 0 ? 'read_file' : 'grep', { path: `src/f${t}-${i}.ts` }),
        ),
      ],
    })
    for (const [i, id] of ids.entries())
      messages.push(result(id, i === 0 ? 'read_file' : 'grep', lorem(`t${t}r${i}w`, resultWords)))
    messages.push({
      id: `b${t}`,
      role: 'assistant',
      parts: [call(`c${t}z`, 'bash', { command: `npm test -- f${t}` })],
    })
    messages.push(result(`c${t}z`, 'bash', lorem(`t${t}out`, resultWords / 2)))
    messages.push({
      id: `d${t}`,
      role: 'assistant',
      parts: [{ kind: 'text', text: `Done with task ${t}: ${lorem('ok', 20)}` }],
    })
  }
  return {
    meta: { format: 'openai-chat' },
    system: [{ kind: 'text', text: 'You are a coding agent. Use the tools.' }],
    tools: [],
    messages,
    markers: [],
  }
}
