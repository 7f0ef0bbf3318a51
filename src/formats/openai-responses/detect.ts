import type { Detection, SniffedInput } from '../types.ts'
import { arr, isObject, looksLikeSse, str } from '../util.ts'
import { exchangeNote, unwrapCapture } from '../openai-chat/exchange.ts'
import { isResponsesStream } from './stream.ts'
import { pushAll } from '../../engine/arrays.ts'

/**
 * Detection per formats.md §16: a request body with `input` (+ `model`/`instructions`), a
 * response (`object:"response"`, or `output[]` without `input`), an array of typed Responses
 * items, or an SSE stream of `response.*` events. JSON Lines are never claimed: Codex rollouts
 * embed the same items inside envelopes and belong to the Codex importer.
 */

/** Item types only the Responses API uses. */
export const ITEM_TYPES = new Set([
  'message',
  'reasoning',
  'function_call',
  'function_call_output',
  'custom_tool_call',
  'custom_tool_call_output',
  'local_shell_call',
  'local_shell_call_output',
  'web_search_call',
  'file_search_call',
  'computer_call',
  'computer_call_output',
  'code_interpreter_call',
  'image_generation_call',
  'mcp_call',
  'mcp_list_tools',
  'mcp_approval_request',
  'mcp_approval_response',
  'compaction',
  'item_reference',
])
const PART_TYPES = new Set(['input_text', 'output_text', 'input_image', 'input_file', 'refusal'])
/** Anthropic / AI-SDK blocks: an array carrying these is not Responses input. */
const FOREIGN = new Set(['tool_use', 'tool_result', 'thinking', 'tool-call', 'tool-result'])

interface ItemsVerdict {
  readonly typed: number
  readonly easy: number
  readonly evidence: string[]
  readonly foreign?: string
}

export function classifyItems(items: readonly unknown[], where: string): ItemsVerdict {
  const types = new Map<string, number>()
  let easy = 0
  let typed = 0
  let parts = 0
  for (const it of items) {
    if (!isObject(it)) continue
    const type = str(it.type)
    if (type && FOREIGN.has(type))
      return { typed: 0, easy: 0, evidence: [], foreign: `\`type:${type}\`` }
    if (type && ITEM_TYPES.has(type)) {
      typed++
      types.set(type, (types.get(type) ?? 0) + 1)
    } else if (type === undefined && typeof it.role === 'string') easy++
    for (const p of arr(it.content)) {
      const pt = isObject(p) ? str(p.type) : undefined
      if (pt && FOREIGN.has(pt))
        return { typed: 0, easy: 0, evidence: [], foreign: `content part \`${pt}\`` }
      if (pt && PART_TYPES.has(pt)) parts++
    }
  }
  const evidence: string[] = []
  if (typed)
    evidence.push(
      `${typed}/${items.length} ${where} are Responses items (${[...types].map(([t, n]) => `${t} ${n}`).join(', ')})`,
    )
  if (easy) evidence.push(`${easy} easy message(s) {role, content}`)
  if (parts) evidence.push(`${parts} input_text/output_text/input_image part(s)`)
  return { typed: typed + (parts > 0 ? 1 : 0), easy, evidence }
}

function flatTools(body: Record<string, unknown>): number {
  return arr(body.tools).filter(
    (t) =>
      isObject(t) && typeof t.type === 'string' && !isObject(t.function) && !('input_schema' in t),
  ).length
}

export function detectResponses(raw: SniffedInput): Detection | null {
  const input = unwrapCapture(raw)
  const format = 'openai-responses' as const
  if (input.kind === 'jsonl') return null
  if (input.kind === 'text') {
    if (looksLikeSse(input.text) && isResponsesStream(input.text)) {
      return { format, confidence: 0.9, evidence: ['SSE stream of `response.*` events'] }
    }
    return null
  }
  const value = input.value
  if (Array.isArray(value)) {
    const v = classifyItems(value, 'elements')
    if (v.foreign || v.typed === 0) return null
    return { format, confidence: 0.8, evidence: ['bare array of Responses items', ...v.evidence] }
  }
  if (!isObject(value)) return null
  const extra = input.exchange ? [exchangeNote(input.exchange)] : []
  if (input.exchange?.url && /\/responses\b/.test(input.exchange.url))
    extra.push('URL is a /responses endpoint')
  if (
    (value.object === 'response' || value.object === 'response.compaction') &&
    Array.isArray(value.output)
  ) {
    return {
      format,
      confidence: 0.95,
      evidence: [`\`object:"${value.object}"\` with \`output[]\``],
    }
  }
  if (Array.isArray(value.output) && value.input === undefined) {
    const v = classifyItems(value.output, 'output items')
    if (v.foreign || v.typed === 0) return null
    return {
      format,
      confidence: 0.8,
      evidence: ['`output[]` without `input` (response body)', ...v.evidence],
    }
  }
  if (value.input === undefined || Array.isArray(value.messages) || Array.isArray(value.contents))
    return null
  const evidence = ['request body with `input`', ...extra]
  const tools = flatTools(value)
  if (tools) evidence.push(`${tools} flat tool definition(s) {type, name, …}`)
  const anchored = typeof value.model === 'string' || value.instructions !== undefined
  if (anchored)
    evidence.push(
      typeof value.model === 'string' ? '`model` beside `input`' : '`instructions` beside `input`',
    )
  if (typeof value.input === 'string') {
    evidence.push('`input` is a string')
    return { format, confidence: anchored ? 0.9 : 0.6, evidence }
  }
  if (!Array.isArray(value.input)) return null
  const v = classifyItems(value.input, 'input items')
  if (v.foreign) return null
  pushAll(evidence, v.evidence)
  if (!anchored) return { format, confidence: v.typed > 0 ? 0.7 : 0.5, evidence }
  return { format, confidence: v.typed > 0 || tools > 0 ? 0.95 : 0.9, evidence }
}
