import { isObject, parseSse, str } from '../util.ts'
import { parseJson } from '../../engine/json.ts'

/** Result of reassembling a streamed Messages response. */
export interface Reassembled {
  /** The response as a non-streamed `{type:'message', …}` object, or null if nothing usable. */
  readonly message: Record<string, unknown> | null
  /** Recoverable problems (cut-off stream, unparsable events), without positions. */
  readonly problems: readonly string[]
}

interface OpenBlock {
  block: Record<string, unknown>
  /** `input_json_delta` fragments for tool_use-like blocks. */
  json?: string
  stopped: boolean
}

/**
 * Rebuild a response from Anthropic SSE events (message_start, content_block_start/delta/stop,
 * message_delta, message_stop). A cut-off stream keeps what arrived; a tool input whose JSON
 * never completed stays a raw string so the importer records `argsError` instead of guessing.
 */
export function reassembleStream(text: string): Reassembled {
  const problems: string[] = []
  let message: Record<string, unknown> | null = null
  const blocks = new Map<number, OpenBlock>()
  let stopped = false
  let unparsable = 0
  for (const { data } of parseSse(text)) {
    if (!isObject(data)) {
      unparsable++
      continue
    }
    const index = typeof data.index === 'number' ? data.index : -1
    switch (data.type) {
      case 'message_start':
        message = isObject(data.message)
          ? { ...data.message }
          : { type: 'message', role: 'assistant' }
        break
      case 'content_block_start': {
        const block = isObject(data.content_block)
          ? { ...data.content_block }
          : { type: 'text', text: '' }
        const open: OpenBlock = { block, stopped: false }
        if ('input' in block) open.json = ''
        blocks.set(index, open)
        break
      }
      case 'content_block_delta': {
        const open = blocks.get(index)
        const delta = isObject(data.delta) ? data.delta : {}
        if (!open) {
          problems.push(
            `content_block_delta for block ${index} without content_block_start, ignored`,
          )
          break
        }
        applyDelta(open, delta, problems)
        break
      }
      case 'content_block_stop': {
        const open = blocks.get(index)
        if (open) finish(open, index, problems)
        break
      }
      case 'message_delta': {
        message ??= { type: 'message', role: 'assistant' }
        if (isObject(data.delta)) Object.assign(message, data.delta)
        if (isObject(data.usage)) {
          const prev = isObject(message.usage) ? message.usage : {}
          message.usage = { ...prev, ...data.usage }
        }
        if (isObject(data.context_management)) message.context_management = data.context_management
        break
      }
      case 'message_stop':
        stopped = true
        break
      case 'error': {
        const err = isObject(data.error) ? data.error : {}
        problems.push(
          `stream reported an error: ${str(err.type) ?? ''} ${str(err.message) ?? ''}`.trim(),
        )
        break
      }
      default:
        break // ping and future event types carry nothing we keep
    }
  }
  if (unparsable > 0) problems.push(`${unparsable} stream event(s) were not JSON objects, skipped`)
  if (!message && blocks.size === 0) return { message: null, problems }
  for (const [index, open] of blocks) if (!open.stopped) finish(open, index, problems)
  if (!stopped) problems.push('stream ended before message_stop (cut off?): kept what arrived')
  const content = [...blocks.entries()].sort((a, b) => a[0] - b[0]).map(([, open]) => open.block)
  const base = message ?? { type: 'message', role: 'assistant' }
  return { message: { ...base, content }, problems }
}

function applyDelta(open: OpenBlock, delta: Record<string, unknown>, problems: string[]): void {
  const b = open.block
  switch (delta.type) {
    case 'text_delta':
      b.text = (str(b.text) ?? '') + (str(delta.text) ?? '')
      break
    case 'input_json_delta':
      open.json = (open.json ?? '') + (str(delta.partial_json) ?? '')
      break
    case 'thinking_delta':
      b.thinking = (str(b.thinking) ?? '') + (str(delta.thinking) ?? '')
      break
    case 'signature_delta':
      b.signature = (str(b.signature) ?? '') + (str(delta.signature) ?? '')
      break
    case 'citations_delta':
      b.citations = [...(Array.isArray(b.citations) ? b.citations : []), delta.citation]
      break
    case 'compaction_delta':
      b.content = (str(b.content) ?? '') + (str(delta.content) ?? '')
      break
    default:
      problems.push(`unknown delta type ${JSON.stringify(delta.type)}, ignored`)
  }
}

function finish(open: OpenBlock, index: number, problems: string[]): void {
  open.stopped = true
  if (open.json === undefined || open.json === '') return
  try {
    open.block.input = parseJson(open.json) as unknown
  } catch {
    open.block.input = open.json
    problems.push(
      `content block ${index}: tool input JSON is incomplete (stream cut off?), kept raw`,
    )
  }
}
