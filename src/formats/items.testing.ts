/** Our own multi-item fixtures (one per kind), shared by the formats, CLI and e2e tests. */

/** tau-bench: `n` trajectories, the i-th with 2 + i messages. */
export function tauBenchFile(n: number): string {
  return JSON.stringify(
    Array.from({ length: n }, (_, i) => ({
      task_id: i,
      trial: 0,
      reward: i % 2,
      info: {},
      traj: [
        { role: 'system', content: `policy ${i}` },
        ...Array.from({ length: 1 + i }, (_, k) =>
          k % 2 === 0
            ? { role: 'user', content: `task ${i} turn ${k}` }
            : { role: 'assistant', content: `answer ${i}.${k}` },
        ),
      ],
    })),
  )
}

export const aiderFile = [
  '# aider chat started at 2024-08-01 10:00:00',
  '',
  '> Main model: gpt-4o  ',
  '',
  '#### first  ',
  '',
  'reply one',
  '',
  '# aider chat started at 2024-08-02 11:00:00',
  '',
  '#### second  ',
  '',
  'reply two',
  '',
  '#### more  ',
  '',
  'reply three',
  '',
  '# aider chat started at 2024-08-03 12:00:00',
  '',
].join('\n')

const line = (v: Record<string, unknown>) => JSON.stringify(v)
const cc = (
  uuid: string,
  parentUuid: string | null,
  type: 'user' | 'assistant',
  text: string,
  extra: Record<string, unknown> = {},
) =>
  line({
    type,
    uuid,
    parentUuid,
    sessionId: 's1',
    cwd: '/repo',
    timestamp: '2025-01-01T00:00:00Z',
    message:
      type === 'user'
        ? { role: 'user', content: text }
        : {
            id: `msg_${uuid}`,
            role: 'assistant',
            model: 'claude-x',
            content: [{ type: 'text', text }],
          },
    ...extra,
  })
export const claudeFile = [
  cc('u1', null, 'user', 'main task'),
  cc('a1', 'u1', 'assistant', 'delegating'),
  cc('s1', null, 'user', 'sub-agent: find the config', { isSidechain: true }),
  cc('s2', 's1', 'assistant', 'found it', { isSidechain: true }),
  cc('t1', null, 'user', 'second sub-agent: run tests', { isSidechain: true, agentId: 'ab12' }),
  cc('t2', 't1', 'assistant', 'tests pass', { isSidechain: true, agentId: 'ab12' }),
  cc('u2', 'a1', 'user', 'thanks'),
  cc('a2', 'u2', 'assistant', 'done'),
].join('\n')

const chatRequest = (first: string, n: number) => ({
  model: 'gpt-4o',
  messages: [
    { role: 'system', content: 'be brief' },
    { role: 'user', content: first },
    ...Array.from({ length: n }, (_, k) => ({
      role: k % 2 === 0 ? 'assistant' : 'user',
      content: `${first} ${k}`,
    })),
  ],
})
export const captureFile = JSON.stringify({
  interactions: [
    ['alpha', 0],
    ['alpha', 2],
    ['beta', 0],
    ['alpha', 4],
    ['beta', 1],
  ].map(([first, n]) => ({
    request: {
      method: 'POST',
      uri: 'https://api.openai.com/v1/chat/completions',
      body: JSON.stringify(chatRequest(first as string, n as number)),
    },
    response: { status: { code: 200 }, body: { string: '{}' } },
  })),
})
