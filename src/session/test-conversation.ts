/**
 * A small OpenAI chat conversation for the sweep and compare tests: the agent reads `src/a.ts`
 * three times, then two other files once each, then answers. (Test-only; it imports the formats,
 * as the worker does.)
 */
import type { Conversation } from '../engine/model.ts'
import { importTranscript } from '../formats/index.ts'

/** The request body of {@link readingConversation} (for loading it as a file would be). */
export function readingBody(): object {
  const file = (v: number) => `// version ${v}\n` + 'export const x = 1\n'.repeat(60)
  const read = (id: string, path: string) => ({
    id,
    type: 'function',
    function: { name: 'read_file', arguments: JSON.stringify({ path }) },
  })
  const reads: [string, string, string][] = [
    ['c1', 'src/a.ts', file(1)],
    ['c2', 'src/a.ts', file(2)],
    ['c3', 'src/a.ts', file(3)],
    ['c4', 'src/b.ts', file(4)],
    ['c5', 'src/c.ts', file(5)],
  ]
  const body = {
    model: 'gpt-4o',
    messages: [
      { role: 'system', content: 'You are a coding agent.' },
      { role: 'user', content: 'Fix the bug in src/a.ts' },
      ...reads.flatMap(([id, path, content]) => [
        { role: 'assistant', content: null, tool_calls: [read(id, path)] },
        { role: 'tool', tool_call_id: id, content },
      ]),
      { role: 'assistant', content: 'Fixed.' },
    ],
  }
  return body
}

export function readingConversation(): Conversation {
  const { result } = importTranscript(JSON.stringify(readingBody()), { fileName: 'chat.json' })
  if (!result.ok) throw new Error(result.error.message)
  return result.conversation
}

/** Stub results that a newer read of the same file supersedes (two of the five reads). */
export const SUPERSEDE = {
  version: 1,
  window: { contextTokens: 20_000, reservedOutput: 100 },
  pipeline: [{ strategy: 'supersede-stale-results', params: { minToolOutputTokens: 1 } }],
}

/** Clear every tool result but the newest `keep`, whatever the size of the context. */
export function clearing(keep: number) {
  return {
    version: 1,
    window: { contextTokens: 20_000, reservedOutput: 100 },
    pipeline: [{ strategy: 'clear-tool-uses', params: { triggerInputTokens: 0, keep } }],
  }
}
