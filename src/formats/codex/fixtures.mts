// Fixtures and helpers shared by the codex test files.
import type { Conversation } from '../../engine/model.ts'
import { sniff } from '../sniff.ts'
import { importer } from './index.ts'

export let t = 0
export const at = () => `2026-01-01T00:00:${String(t++).padStart(2, '0')}.000Z`
export const rl = (type: string, payload: unknown) => ({ timestamp: at(), type, payload })
export const item = (payload: Record<string, unknown>) => rl('response_item', payload)
export const event = (payload: Record<string, unknown>) => rl('event_msg', payload)
export const msg = (
  role: string,
  text: string,
  type = role === 'assistant' ? 'output_text' : 'input_text',
) => item({ type: 'message', role, content: [{ type, text }] })
export const jsonl = (...objs: unknown[]) => objs.map((o) => JSON.stringify(o)).join('\n') + '\n'
export const tokens = (input: number) =>
  event({
    type: 'token_count',
    info: {
      total_token_usage: { input_tokens: 999999 },
      last_token_usage: {
        input_tokens: input,
        cached_input_tokens: 4096,
        output_tokens: 40,
        reasoning_output_tokens: 12,
        total_tokens: input + 40,
      },
      model_context_window: 258400,
    },
    rate_limits: null,
  })

export function parse(text: string): Conversation {
  const r = importer.parse(sniff(text))
  if (!r.ok) throw new Error(`parse failed: ${r.error.message}`)
  return r.conversation
}

export const rollout = jsonl(
  rl('session_meta', {
    id: 'sess-1',
    timestamp: 't',
    cwd: '/w',
    originator: 'codex_cli_rs',
    cli_version: '0.77.0',
    base_instructions: { text: 'You are Codex.' },
  }),
  msg('developer', '<permissions instructions>\nsandboxed\n</permissions instructions>'),
  msg('user', '# AGENTS.md instructions for /w\n\n<INSTRUCTIONS>be nice</INSTRUCTIONS>'),
  msg('user', '<environment_context>\n  <cwd>/w</cwd>\n</environment_context>'),
  event({ type: 'task_started', turn_id: 'turn-1', model_context_window: 272000 }),
  msg('user', 'run ls and wc'),
  event({ type: 'user_message', message: 'run ls and wc', images: [] }),
  rl('turn_context', { turn_id: 'turn-1', cwd: '/w', model: 'gpt-5.2-codex', effort: 'high' }),
  event({ type: 'agent_reasoning', text: 'Planning' }),
  item({
    type: 'reasoning',
    summary: [{ type: 'summary_text', text: 'Planning' }],
    content: null,
    encrypted_content: 'gAAAAABencrypted',
  }),
  event({ type: 'agent_message', message: 'Running both.' }),
  item({
    type: 'message',
    role: 'assistant',
    content: [{ type: 'output_text', text: 'Running both.' }],
    phase: 'commentary',
  }),
  item({
    type: 'function_call',
    name: 'shell',
    arguments: '{"command":["ls"]}',
    call_id: 'call_1',
  }),
  item({ type: 'function_call', name: 'shell', arguments: '{"command":["wc"', call_id: 'call_2' }),
  tokens(5200),
  item({ type: 'function_call_output', call_id: 'call_2', output: 'wc: error' }),
  item({ type: 'function_call_output', call_id: 'call_1', output: 'a.txt\n' }),
  rl('turn_context', { turn_id: 'turn-1', cwd: '/w', model: 'gpt-5.2-codex' }),
  tokens(5200),
  item({
    type: 'custom_tool_call',
    status: 'completed',
    call_id: 'call_3',
    name: 'apply_patch',
    input: '*** Begin Patch\n*** End Patch',
  }),
  item({
    type: 'web_search_call',
    status: 'completed',
    action: { type: 'search', query: 'codex' },
  }),
  item({
    type: 'local_shell_call',
    call_id: 'call_4',
    status: 'completed',
    action: { type: 'exec', command: ['pwd'] },
  }),
  item({ type: 'ghost_snapshot', ghost_commit: { id: 'abc' } }),
  tokens(6100),
  item({
    type: 'custom_tool_call_output',
    call_id: 'call_3',
    output: '{"output":"Done!","metadata":{"exit_code":0}}',
  }),
  item({ type: 'function_call_output', call_id: 'call_4', output: '/w\n' }),
  item({
    type: 'message',
    role: 'assistant',
    content: [{ type: 'output_text', text: 'All done.' }],
    phase: 'final_answer',
  }),
  event({ type: 'task_complete', turn_id: 'turn-1' }),
  rl('mystery_line', { x: 1 }),
)
