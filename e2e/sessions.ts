/**
 * Small Claude Code sessions written for the browser tests (our own, never corpus files): lines
 * with per-call usage that follows a hidden prefix and a scale, an upstream compaction (a
 * `compact_boundary` and its `isCompactSummary` line) after which the reported figure drops, and
 * one call whose reported figure is far off (something the log does not show).
 */
const SESSION = '5e55e55e-0000-4000-8000-000000000001'
const words = (n: number, tag: string) =>
  Array.from({ length: n }, (_, i) => `${tag}${i % 97} value_${(i * 7) % 13}`).join(' ')

interface Line {
  readonly [key: string]: unknown
}

export function compactedClaudeSession(): string {
  const lines: Line[] = []
  let parent: string | null = null
  let n = 0
  // Our estimate of what the log shows since the last compaction (chars/4 is close enough for a
  // fit: the reconciliation finds the prefix and the scale itself).
  let visible = 0
  const base = {
    isSidechain: false,
    userType: 'external',
    cwd: '/work/demo',
    sessionId: SESSION,
    version: '2.0.42',
  }
  const push = (line: Line, chars: number) => {
    const uuid = `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`
    lines.push({
      ...base,
      parentUuid: parent,
      uuid,
      timestamp: `2026-03-14T09:${String(n % 60).padStart(2, '0')}:00.000Z`,
      ...line,
    })
    parent = uuid
    visible += Math.round(chars / 4)
  }
  const usage = (extra = 0) => {
    const context = Math.round(14_000 + 1.1 * visible) + extra
    return {
      input_tokens: 5,
      cache_creation_input_tokens: 300,
      cache_read_input_tokens: context - 305,
      output_tokens: 120,
    }
  }
  const user = (text: string) =>
    push({ type: 'user', message: { role: 'user', content: text } }, text.length)
  const assistantCall = (id: string, k: number, extra = 0) => {
    const input = { file_path: `/work/demo/src/file${k}.ts` }
    push(
      {
        type: 'assistant',
        message: {
          id: `msg_${id}`,
          type: 'message',
          role: 'assistant',
          model: 'claude-sonnet-4-5-20250929',
          content: [{ type: 'tool_use', id: `toolu_${id}`, name: 'Read', input }],
          usage: usage(extra),
        },
      },
      JSON.stringify(input).length + 20,
    )
    const out = words(300 + ((k * 53) % 400), `k${k}_`)
    push(
      {
        type: 'user',
        message: {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: `toolu_${id}`, content: out }],
        },
      },
      out.length,
    )
  }
  user('Read the source files one by one and summarise what each does.')
  for (let k = 0; k < 14; k++) assistantCall(`a${k}`, k, k === 9 ? 9_000 : 0)
  // The upstream compaction: Claude Code's boundary, then its summary as a user line.
  lines.push({
    ...base,
    parentUuid: parent,
    uuid: 'boundary-1',
    type: 'system',
    subtype: 'compact_boundary',
    content: 'Conversation compacted',
    compactMetadata: { trigger: 'auto', preTokens: 40_000 },
    timestamp: '2026-03-14T10:00:00.000Z',
  })
  parent = 'boundary-1'
  visible = 0
  push(
    {
      type: 'user',
      isCompactSummary: true,
      message: {
        role: 'user',
        content: `This session is being continued from a previous conversation. Summary: ${words(120, 's')}`,
      },
    },
    900,
  )
  user('Continue with the remaining files.')
  for (let k = 14; k < 24; k++) assistantCall(`b${k}`, k)
  push(
    {
      type: 'assistant',
      message: {
        id: 'msg_final',
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-5-20250929',
        content: [{ type: 'text', text: 'All files are summarised above.' }],
        usage: usage(),
      },
    },
    40,
  )
  return lines.map((l) => JSON.stringify(l)).join('\n') + '\n'
}
