// Node-only test helper: `.mts` keeps it out of tsconfig.engine.json (no Node types there); it is
// type-checked through the tests that import it (tsconfig.node.json).
import { createHash } from 'node:crypto'
import { StrategyContext } from '../../compaction/context.ts'
import { prepare } from '../../compaction/prepared.ts'
import { computeProtections, DEFAULT_PROTECTIONS } from '../../compaction/protect.ts'
import type { Decision, ProtectionConfig } from '../../compaction/types.ts'
import { WorkingView } from '../../compaction/view.ts'
import type { Conversation, Message, Part, ToolCallPart, ToolResultPart } from '../../model.ts'
import { estimateCounter } from '../../tokens/index.ts'
import { toolPayloadTrimStrategy as strategy } from '../tool-payload-trim.ts'

/**
 * Test builders for the tool-payload-trim tests: OpenAI-chat-shaped conversations and a runner
 * through the real pipeline pieces (prepare → WorkingView → protections → StrategyContext).
 */

let seq = 0
export const msg = (role: Message['role'], parts: Part[]): Message => ({
  id: `m${++seq}`,
  role,
  parts,
})
export const call = (id: string, name: string, args: Record<string, unknown>): ToolCallPart => ({
  kind: 'tool_call',
  callId: id,
  name,
  argsRaw: JSON.stringify(args),
  args,
})
export const result = (id: string | null, text: string): ToolResultPart => ({
  kind: 'tool_result',
  callId: id,
  content: [{ kind: 'text', text }],
  isError: false,
})
export const user = (text: string) => msg('user', [{ kind: 'text', text }])
export const assistant = (...parts: Part[]) => msg('assistant', parts)
export const tool = (...parts: Part[]) => msg('tool', parts)
export const conv = (messages: Message[]): Conversation => ({
  meta: { format: 'openai-chat' },
  system: [],
  tools: [],
  messages,
  markers: [],
})

export async function run(
  conversation: Conversation,
  params: Record<string, unknown> = {},
  protections: Partial<ProtectionConfig> = {},
  before?: (view: WorkingView) => void,
  limit?: number,
) {
  const view = new WorkingView(prepare(conversation, estimateCounter), limit)
  before?.(view)
  const prot = computeProtections(view, { ...DEFAULT_PROTECTIONS, ...protections })
  const window = { contextTokens: 200_000, reservedOutput: 0, buffer: 0, usable: 200_000 }
  const ctx = new StrategyContext(view, prot, strategy.id, 0, window, undefined)
  await strategy.run(ctx, strategy.schema.parse(params))
  const at = (message: number, part = 0) => view.part({ message, part })
  const about = (message: number, part = 0): Decision[] =>
    ctx.decisions.filter(
      (d) => 'target' in d && d.target?.message === message && d.target.part === part,
    )
  const changes = ctx.decisions.filter((d) => d.kind === 'trim' || d.kind === 'stub')
  return { ctx, view, at, about, changes }
}

/** PHP json_encode of a string, written independently of the code under test. */
export const refPhpString = (s: string) =>
  JSON.stringify(s)
    .replace(/\//g, '\\/')
    .replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
export const nodeSha = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex')

export const fileText = (tag: string, n: number) =>
  [
    '<?php',
    `// src/A.php — naïve ${tag} 😀`,
    ...Array.from({ length: n }, (_, i) => `echo "${tag} ${i}";`),
  ].join('\n')

export const READ = { path: 'A.php', position: 0, length: 6000 }
export const READ_CONFIG = {
  inputTrimBytes: 100,
  outputTrimBytes: 100,
  toolIdentifierFields: { read_file_content: ['path', 'position', 'length'] },
}
export const FILE_V1 = fileText('read', 120)

export const big = (tag: string, bytes = 800) => `${tag}: ${'x'.repeat(bytes)}`
export const write = (id: string, path: string, content: string) =>
  call(id, 'write_file_content', { path, content })
export const WRITE_IDS = { toolIdentifierFields: { write_file_content: ['path'] } }
