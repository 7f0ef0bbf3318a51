import type { Detection, SniffedInput } from '../types.ts'
import { arr, isObject, looksLikeSse, str } from '../util.ts'

/** Block types only the Anthropic Messages API uses (OpenAI shares `text`, so it is no evidence). */
const ANTHROPIC_BLOCKS = new Set([
  'tool_use',
  'tool_result',
  'thinking',
  'redacted_thinking',
  'server_tool_use',
  'web_search_tool_result',
  'web_fetch_tool_result',
  'code_execution_tool_result',
  'mcp_tool_use',
  'mcp_tool_result',
  'compaction',
  'document',
  'search_result',
  'container_upload',
])

interface Scan {
  messages: number
  anthropicBlocks: Map<string, number>
  openaiMarkers: string[]
  plainString: number
  roleContent: number
}

/** Count Anthropic evidence and OpenAI counter-evidence in a messages array. */
function scanMessages(messages: readonly unknown[]): Scan {
  const scan: Scan = {
    messages: messages.length,
    anthropicBlocks: new Map(),
    openaiMarkers: [],
    plainString: 0,
    roleContent: 0,
  }
  const openai = new Set<string>()
  for (const m of messages.slice(0, 500)) {
    if (!isObject(m)) continue
    if (typeof m.role === 'string' && 'content' in m) scan.roleContent++
    const role = str(m.role)
    if (role === 'tool' || role === 'function' || role === 'developer' || role === 'system')
      openai.add(`role "${role}"`)
    if ('tool_calls' in m || 'tool_call_id' in m || 'function_call' in m)
      openai.add('tool_calls / tool_call_id')
    if ('parts' in m) openai.add('`parts` (not Anthropic)')
    if (typeof m.content === 'string') scan.plainString++
    for (const b of arr(m.content)) {
      if (!isObject(b)) continue
      const type = str(b.type)
      if (type === 'image_url' || type === 'input_text' || type === 'output_text')
        openai.add(`"${type}" parts`)
      if (type === 'image' && isObject(b.source))
        scan.anthropicBlocks.set(
          'image.source',
          (scan.anthropicBlocks.get('image.source') ?? 0) + 1,
        )
      if (type && (ANTHROPIC_BLOCKS.has(type) || type.endsWith('_tool_result'))) {
        scan.anthropicBlocks.set(type, (scan.anthropicBlocks.get(type) ?? 0) + 1)
      }
    }
  }
  scan.openaiMarkers = [...openai]
  return scan
}

function blockEvidence(scan: Scan): string {
  return [...scan.anthropicBlocks.entries()].map(([t, n]) => `${t} ×${n}`).join(', ')
}

function result(confidence: number, evidence: string[]): Detection {
  return { format: 'anthropic-messages', confidence: Math.min(0.99, confidence), evidence }
}

/**
 * Follows formats.md §16: a response object (`type:"message"`), a request whose `messages` carry
 * Anthropic blocks or whose body has `system` / `anthropic_version` / `input_schema` tools /
 * `thinking`, or a bare array of Anthropic-block messages. Plain `[{role, content:string}]` is
 * ambiguous with OpenAI chat and only gets a low guess.
 */
export function detectAnthropic(input: SniffedInput): Detection | null {
  if (input.kind === 'text') {
    const head = input.text.slice(0, 4000)
    if (
      looksLikeSse(head) &&
      /message_start/.test(head) &&
      /content_block_|message_delta|message_stop/.test(input.text)
    ) {
      return result(0.9, [
        'SSE stream with message_start / content_block_* events (Anthropic streaming)',
      ])
    }
    return null
  }
  if (input.kind !== 'json') return null
  const v = input.value
  const evidence: string[] = []
  const url = input.exchange?.url
  const urlHit = url !== undefined && /\/v1\/messages\b|anthropic/i.test(url)
  if (urlHit) evidence.push(`captured request URL ${url}`)
  if (Array.isArray(v)) {
    const scan = scanMessages(v)
    if (scan.roleContent < Math.max(1, v.length * 0.8)) return null
    if (scan.openaiMarkers.length > 0) return null
    if (scan.anthropicBlocks.size > 0) {
      return result(0.85, [
        `array of ${v.length} {role, content} messages`,
        `Anthropic blocks: ${blockEvidence(scan)}`,
      ])
    }
    return result(0.25, [
      `array of ${v.length} {role, content} messages with no Anthropic-only blocks (ambiguous with OpenAI chat)`,
    ])
  }
  if (!isObject(v)) return null
  if (v.type === 'message' && v.role === 'assistant' && Array.isArray(v.content)) {
    return result(0.95, [
      'object with type "message", role "assistant" and content[] (Messages API response)',
    ])
  }
  if (!Array.isArray(v.messages)) return null
  if (Array.isArray(v.contents) || v.input !== undefined) return null
  // Session files (Gemini CLI, opencode exports) also have `messages`, but not of {role, content}.
  if ('sessionId' in v || 'projectHash' in v) return null
  const scan = scanMessages(v.messages)
  if (v.messages.length > 0 && scan.roleContent < v.messages.length * 0.8) return null
  let confidence = 0.3
  evidence.push(`messages[] with ${v.messages.length} entries`)
  if (typeof v.anthropic_version === 'string') {
    confidence = Math.max(confidence, 0.95)
    evidence.push(`anthropic_version "${v.anthropic_version}"`)
  }
  if (scan.anthropicBlocks.size > 0) {
    confidence = Math.max(confidence, 0.9)
    evidence.push(`Anthropic blocks: ${blockEvidence(scan)}`)
  }
  if (arr(v.tools).some((t) => isObject(t) && isObject(t.input_schema))) {
    confidence = Math.max(confidence, 0.9)
    evidence.push('tools with input_schema')
  }
  if (v.system !== undefined && (typeof v.system === 'string' || Array.isArray(v.system))) {
    confidence = Math.max(confidence, 0.8)
    evidence.push('top-level `system`')
  }
  if (
    isObject(v.thinking) &&
    (v.thinking.type === 'enabled' ||
      v.thinking.type === 'adaptive' ||
      v.thinking.type === 'disabled')
  ) {
    confidence = Math.max(confidence, 0.8)
    evidence.push(`thinking {type:"${String(v.thinking.type)}"}`)
  }
  if (isObject(v.context_management)) {
    confidence = Math.max(confidence, 0.85)
    evidence.push('context_management')
  }
  if (urlHit) confidence = Math.max(confidence, 0.9)
  if (confidence <= 0.3 && typeof v.max_tokens === 'number') {
    confidence = 0.4
    evidence.push('max_tokens (also used by OpenAI: weak)')
  }
  if (scan.openaiMarkers.length > 0) {
    // OpenAI chat bodies can look similar; their own markers win unless Anthropic is certain.
    evidence.push(`but OpenAI markers: ${scan.openaiMarkers.join(', ')}`)
    confidence =
      scan.anthropicBlocks.size > 0 || urlHit
        ? Math.min(confidence, 0.6)
        : Math.min(confidence, 0.2)
  }
  return result(confidence, evidence)
}
