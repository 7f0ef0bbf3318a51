/**
 * A generated OpenAI chat session for the risk test (our own, never a corpus file): the agent
 * greps for a function, reads four large unrelated files, then names the function, the line and
 * the file the grep found. Over 100k tokens, so Anthropic's clear-tool-uses (keep 3) clears the
 * grep's result — content the agent used later.
 */
export const RISK = {
  identifier: 'parse_config',
  path: 'src/settings/loader.py',
  line: 'line 212',
} as const

/** Varied prose with nothing distinctive in it (no paths, identifiers or long numbers). */
function filler(lines: number, seed: number): string {
  const words = ['lorem', 'ipsum', 'dolor', 'sit', 'amet', 'consectetur', 'adipiscing', 'elit']
  return Array.from({ length: lines }, (_, i) =>
    Array.from({ length: 9 }, (_, w) => words[(i * 3 + w * 5 + seed) % words.length]).join(' '),
  ).join('\n')
}

const call = (id: string, name: string, args: object) => ({
  role: 'assistant',
  content: null,
  tool_calls: [{ id, type: 'function', function: { name, arguments: JSON.stringify(args) } }],
})

export function riskSession(): string {
  const reads = [1, 2, 3, 4].flatMap((i) => [
    call(`read${i}`, 'read_file', { path: `notes/part${i}.txt` }),
    { role: 'tool', tool_call_id: `read${i}`, content: filler(3000, i) },
  ])
  return JSON.stringify({
    model: 'gpt-4o',
    messages: [
      { role: 'system', content: 'You are a coding agent.' },
      { role: 'user', content: 'The settings loader crashes on empty files. Find and fix it.' },
      call('grep1', 'grep', { pattern: 'def parse' }),
      {
        role: 'tool',
        tool_call_id: 'grep1',
        content: `${RISK.path}:212: def ${RISK.identifier}(path):\n${filler(3000, 0)}`,
      },
      ...reads,
      {
        role: 'assistant',
        content: `I will guard ${RISK.identifier} at ${RISK.line} of ${RISK.path} against empty files.`,
      },
    ],
  })
}
