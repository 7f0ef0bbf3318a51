// Fixtures and helpers shared by the claude-code test files.
import type { Conversation } from '../../engine/model.ts'
import { sniff } from '../sniff.ts'
import { importer } from './index.ts'

export let n = 0
/** A conversation line with the usual Claude Code envelope. */
export function line(type: string, fields: Record<string, unknown>, parent: string | null = null) {
  n++
  return {
    parentUuid: parent,
    isSidechain: false,
    userType: 'external',
    cwd: '/w',
    sessionId: 's1',
    version: '2.0.76',
    type,
    uuid: `u${n}`,
    timestamp: `2026-01-01T00:00:${String(n).padStart(2, '0')}Z`,
    ...fields,
  }
}
export const user = (
  content: unknown,
  extra: Record<string, unknown> = {},
  parent: string | null = null,
) => line('user', { message: { role: 'user', content }, ...extra }, parent)
export const assistant = (
  id: string,
  block: unknown,
  usage: Record<string, number>,
  parent: string | null = null,
  extra = {},
) =>
  line(
    'assistant',
    {
      requestId: `req_${id}`,
      message: {
        id,
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        content: [block],
        stop_reason: null,
        usage,
      },
      ...extra,
    },
    parent,
  )
export const jsonl = (...objs: unknown[]) => objs.map((o) => JSON.stringify(o)).join('\n') + '\n'

export function parse(text: string, fileName?: string): Conversation {
  const r = importer.parse(sniff(text), { fileName })
  if (!r.ok) throw new Error(`parse failed: ${r.error.message}`)
  return r.conversation
}

// One API response written as 4 lines (thinking, text, two parallel tool_use), results out of order.
export const u1 = user('list files and count lines')
export const a1 = assistant(
  'msg_1',
  { type: 'thinking', thinking: 'plan', signature: 'c2lnbmF0dXJl' },
  {
    input_tokens: 3,
    cache_read_input_tokens: 12000,
    cache_creation_input_tokens: 500,
    output_tokens: 8,
  },
  u1.uuid,
)
export const a2 = assistant(
  'msg_1',
  { type: 'text', text: 'Running both.' },
  {
    input_tokens: 3,
    cache_read_input_tokens: 12000,
    cache_creation_input_tokens: 500,
    output_tokens: 8,
  },
  a1.uuid,
)
export const a3 = assistant(
  'msg_1',
  { type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'ls' } },
  {
    input_tokens: 3,
    cache_read_input_tokens: 12000,
    cache_creation_input_tokens: 500,
    output_tokens: 8,
  },
  a2.uuid,
)
export const progress = {
  type: 'progress',
  data: { type: 'hook_progress' },
  toolUseID: 'toolu_1',
  parentToolUseID: 'toolu_1',
  sessionId: 's1',
  parentUuid: a3.uuid,
  uuid: 'p1',
}
export const a4 = assistant(
  'msg_1',
  { type: 'tool_use', id: 'toolu_2', name: 'Bash', input: { command: 'wc -l *' } },
  {
    input_tokens: 3,
    cache_read_input_tokens: 12000,
    cache_creation_input_tokens: 500,
    output_tokens: 120,
  },
  a3.uuid,
)
export const r2 = user(
  [{ type: 'tool_result', tool_use_id: 'toolu_2', content: 'wc: denied', is_error: true }],
  { toolUseResult: 'Error: wc: denied' },
  a4.uuid,
)
export const r1 = user(
  [
    {
      tool_use_id: 'toolu_1',
      type: 'tool_result',
      content: [
        { type: 'text', text: 'a.txt\n' },
        {
          type: 'image',
          source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' },
        },
      ],
    },
  ],
  { toolUseResult: { stdout: 'a.txt\n' } },
  a3.uuid,
)
export const a5 = assistant(
  'msg_2',
  { type: 'text', text: 'Done.' },
  { input_tokens: 5, cache_read_input_tokens: 12500, output_tokens: 30 },
  r1.uuid,
)
export const session = jsonl(
  {
    type: 'file-history-snapshot',
    messageId: u1.uuid,
    snapshot: { messageId: u1.uuid, trackedFileBackups: {} },
    isSnapshotUpdate: false,
  },
  u1,
  a1,
  a2,
  a3,
  progress,
  a4,
  r2,
  r1,
  a5,
  { type: 'summary', summary: 'Old title', leafUuid: 'x' },
  { type: 'summary', summary: 'Listing files', leafUuid: a5.uuid },
  { type: 'weird-new-type', sessionId: 's1', foo: 1 },
)
