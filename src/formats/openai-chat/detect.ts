import type { Detection, SniffedInput } from '../types.ts'
import { arr, isObject, looksLikeSse, str } from '../util.ts'
import { exchangeNote, unwrapCapture } from './exchange.ts'
import { isChatChunkStream } from './stream.ts'

/**
 * Detection per formats.md §16 rules 4/5: OpenAI chat markers inside a messages array, nested
 * `{type:'function', function:{…}}` tools, `choices[]` responses, chunk streams, tau-bench
 * result arrays. Messages carrying another format's blocks are not claimed.
 */

/** Content-part / item types that belong to other formats (Anthropic, AI SDK, Responses). */
const FOREIGN_PARTS = new Set([
  'tool_use',
  'tool_result',
  'thinking',
  'redacted_thinking',
  'server_tool_use',
  'tool-call',
  'tool-result',
  'input_text',
  'output_text',
  'input_image',
])

export interface MessagesVerdict {
  readonly confidence: number
  readonly evidence: string[]
  /** Why the array is not OpenAI chat (another format's marker), if so. */
  readonly foreign?: string
}

/** Classify an array of candidate chat messages. */
export function classifyMessages(list: readonly unknown[], where: string): MessagesVerdict {
  let withRole = 0
  const markers = new Map<string, number>()
  const bump = (k: string) => markers.set(k, (markers.get(k) ?? 0) + 1)
  for (const m of list) {
    if (!isObject(m)) continue
    const role = str(m.role)
    if (m.type !== undefined && m.type !== 'message')
      return { confidence: 0, evidence: [], foreign: `item \`type:${String(m.type)}\`` }
    if (Array.isArray(m.parts) || role === 'model')
      return { confidence: 0, evidence: [], foreign: 'Gemini `parts`/`model` role' }
    if (role === undefined) continue
    withRole++
    if (role === 'tool' || role === 'function' || role === 'developer' || role === 'system')
      bump(`role:${role}`)
    if (Array.isArray(m.tool_calls)) {
      const first = m.tool_calls[0]
      if (isObject(first) && (isObject(first.function) || isObject(first.custom)))
        bump('tool_calls[].function')
      else if (m.tool_calls.length > 0) bump('tool_calls')
    }
    if ('tool_call_id' in m) bump('tool_call_id')
    if (isObject(m.function_call)) bump('function_call')
    if (typeof m.reasoning_content === 'string') bump('reasoning_content')
    for (const p of arr(m.content)) {
      const t = isObject(p) ? str(p.type) : undefined
      if (t === undefined) continue
      if (FOREIGN_PARTS.has(t) || (t === 'image' && isObject(p) && isObject(p.source))) {
        return { confidence: 0, evidence: [], foreign: `content part \`${t}\`` }
      }
      if (t === 'image_url' || t === 'input_audio') bump(`part:${t}`)
    }
  }
  if (withRole === 0) return { confidence: 0, evidence: [], foreign: 'no element has `role`' }
  const evidence = [`${withRole}/${list.length} ${where} have \`role\``]
  for (const [k, n] of markers) evidence.push(`${n}× ${k}`)
  const strong = [...markers.keys()].some((k) => k !== 'role:system' && k !== 'role:developer')
  if (strong) return { confidence: 0.9, evidence }
  if (markers.size > 0) return { confidence: 0.7, evidence }
  evidence.push('only user/assistant messages with plain content: ambiguous (OpenAI ≈ Anthropic)')
  return { confidence: 0.4, evidence }
}

function anthropicMarkers(body: Record<string, unknown>): string | undefined {
  if ('anthropic_version' in body) return '`anthropic_version`'
  if (body.system !== undefined) return 'top-level `system`'
  if (arr(body.tools).some((t) => isObject(t) && 'input_schema' in t))
    return 'tools with `input_schema`'
  return undefined
}

function chatTools(body: Record<string, unknown>): number {
  return arr(body.tools).filter((t) => isObject(t) && (isObject(t.function) || isObject(t.custom)))
    .length
}

export function detectChat(raw: SniffedInput): Detection | null {
  const input = unwrapCapture(raw)
  const format = 'openai-chat' as const
  if (input.kind === 'text') {
    if (looksLikeSse(input.text) && isChatChunkStream(input.text)) {
      return { format, confidence: 0.9, evidence: ['SSE stream of `chat.completion.chunk` events'] }
    }
    return null
  }
  if (input.kind === 'jsonl') {
    const values = input.lines.map((l) => l.value)
    if (!values.every((v) => isObject(v) && typeof v.role === 'string' && !('payload' in v)))
      return null
    const v = classifyMessages(values, 'lines')
    if (v.foreign) return null
    return {
      format,
      confidence: Math.min(v.confidence, 0.8),
      evidence: ['JSON Lines of messages', ...v.evidence],
    }
  }
  const value = input.value
  const extra = input.exchange ? [exchangeNote(input.exchange)] : []
  if (Array.isArray(value)) {
    const tau = value.filter((e) => isObject(e) && Array.isArray(e.traj))
    if (tau.length > 0 && tau.length === value.length) {
      return {
        format,
        confidence: 0.9,
        evidence: [
          `${tau.length} element(s) with \`traj\` (tau-bench results)`,
          'traj holds chat messages',
        ],
      }
    }
    const v = classifyMessages(value, 'elements')
    if (v.foreign || v.confidence === 0) return null
    return {
      format,
      confidence: Math.min(v.confidence, 0.85),
      evidence: ['bare messages array', ...v.evidence],
    }
  }
  if (!isObject(value)) return null
  if (Array.isArray(value.choices)) {
    const first = value.choices[0]
    const hasMessage = isObject(first) && (isObject(first.message) || isObject(first.delta))
    if (value.object === 'chat.completion' || value.object === 'chat.completion.chunk') {
      return {
        format,
        confidence: 0.95,
        evidence: [`\`object:"${value.object}"\` with \`choices[]\``],
      }
    }
    if (hasMessage)
      return { format, confidence: 0.8, evidence: ['`choices[].message` (response body)'] }
    return null
  }
  if (!Array.isArray(value.messages)) return null
  const foreign = anthropicMarkers(value)
  const v = classifyMessages(value.messages, 'messages')
  if (v.foreign) return null
  const tools = chatTools(value)
  const evidence = ['request body with `messages[]`', ...v.evidence, ...extra]
  if (tools > 0) evidence.push(`${tools} tool(s) shaped {type:"function", function:{…}}`)
  if (input.exchange?.url && /\/chat\/completions/.test(input.exchange.url))
    evidence.push('URL is a chat/completions endpoint')
  if (foreign) {
    // Anthropic bodies also have `messages[]`: do not claim them unless OpenAI markers are strong.
    return v.confidence >= 0.9
      ? { format, confidence: 0.5, evidence: [...evidence, `but ${foreign}`] }
      : null
  }
  let confidence = v.confidence
  if (tools > 0 || (input.exchange?.url && /\/chat\/completions/.test(input.exchange.url))) {
    confidence = Math.max(confidence, 0.9)
  } else if (confidence < 0.5 && 'model' in value) confidence = 0.5
  return { format, confidence, evidence }
}
