import type { Message, ReportedUsage, UpstreamMarker } from '../../engine/model.ts'
import type { ParseWarning } from '../types.ts'
import type { IdAllocator } from '../util.ts'
import { isObject, looksLikeSse, num, str, warning } from '../util.ts'
import type { bodyLocator } from '../locate.ts'
import { openAiUsage } from '../openai-usage.ts'
import { parseResponseItems } from './items.ts'
import { readResponsesStream } from './stream.ts'
import { pushAll } from '../../engine/arrays.ts'

// The response half of a Responses input: output items become the final model turn.

/** `usage` of a Responses response → ReportedUsage (the input size is that call's context). */
export function usageFromResponses(u: unknown): ReportedUsage | undefined {
  return openAiUsage(u, {
    input: 'input_tokens',
    output: 'output_tokens',
    inputDetails: 'input_tokens_details',
    outputDetails: 'output_tokens_details',
    source: 'responses usage',
  })
}

export function appendOutput(
  response: unknown,
  inputCount: number,
  ids: IdAllocator,
  messages: Message[],
  markers: UpstreamMarker[],
  warnings: ParseWarning[],
  notes: string[],
  locate: ReturnType<typeof bodyLocator>,
): Record<string, unknown> | undefined {
  let body: unknown = response
  const top = () => locate('response', [])
  if (typeof response === 'string' && looksLikeSse(response)) {
    const s = readResponsesStream(response)
    if (!s) {
      const p = top()
      warnings.push(
        warning(
          p.line,
          p.offset,
          'response stream has no `response.*` events; final turn not loaded',
        ),
      )
      return undefined
    }
    notes.push(`response read from a stream of ${s.events} events`)
    if (s.partial) {
      const p = top()
      warnings.push(
        warning(
          p.line,
          p.offset,
          'stream has no `response.completed` event (cut off?): output rebuilt from `response.output_item.done` items',
        ),
      )
    }
    body = s.body
  }
  if (!isObject(body) || !Array.isArray(body.output)) {
    const p = top()
    const err =
      isObject(body) && isObject(body.error)
        ? ` (API error: ${str(body.error.message) ?? 'unknown'})`
        : ''
    warnings.push(
      warning(
        p.line,
        p.offset,
        `expected the response to have \`output[]\`${err}; final turn not loaded`,
      ),
    )
    return undefined
  }
  const start = messages.length
  const parsed = parseResponseItems(body.output, {
    ids,
    indexBase: inputCount,
    messageBase: start,
    warn: (i, message) => {
      const p = locate('response', ['output', i])
      warnings.push(warning(p.line, p.offset, `output[${i}]: ${message}`))
    },
  })
  const usage = usageFromResponses(body.usage)
  const model = str(body.model)
  const created = num(body.created_at)
  let lastAssistant = -1
  parsed.messages.forEach((m, i) => {
    if (m.role === 'assistant') lastAssistant = i
  })
  parsed.messages.forEach((m, i) => {
    messages.push({
      ...m,
      ...(m.role === 'assistant' && model !== undefined ? { model } : {}),
      ...(m.role === 'assistant' && created !== undefined
        ? { timestamp: new Date(created * 1000).toISOString() }
        : {}),
      ...(i === lastAssistant && usage ? { usage } : {}),
      source: { ...m.source, fromResponse: true },
    })
  })
  pushAll(markers, parsed.markers)
  if (usage && lastAssistant === -1) {
    notes.push(
      `response usage (${usage.inputTokens ?? '?'} input tokens) has no model message to attach to`,
    )
  }
  const { output: _o, ...envelope } = body
  return envelope
}
