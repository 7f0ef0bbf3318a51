import type { Message, ReportedUsage } from '../../engine/model.ts'
import type { ParseWarning } from '../types.ts'
import type { IdAllocator } from '../util.ts'
import { arr, isObject, looksLikeSse, num, str, warning } from '../util.ts'
import { openAiUsage } from '../openai-usage.ts'
import { parseChatMessage } from './messages.ts'
import { reassembleChatStream } from './stream.ts'

// The response half of a Chat Completions input: the final assistant turn and its usage.

/** `usage` of a chat response → ReportedUsage (the prompt size is the context of that call). */
export function usageFromChat(u: unknown): ReportedUsage | undefined {
  return openAiUsage(u, {
    input: 'prompt_tokens',
    output: 'completion_tokens',
    inputDetails: 'prompt_tokens_details',
    outputDetails: 'completion_tokens_details',
    source: 'openai chat usage',
  })
}

/**
 * Append `choices[0].message` of a response (object or SSE text) as the final assistant message.
 * Returns the response envelope (everything but the message) for the serializer.
 */
export function appendResponse(
  response: unknown,
  ids: IdAllocator,
  index: number,
  messages: Message[],
  warnings: ParseWarning[],
  notes: string[],
  where: () => { line: number; offset: number },
): Record<string, unknown> | undefined {
  let body: unknown = response
  if (typeof response === 'string' && looksLikeSse(response)) {
    const r = reassembleChatStream(response)
    if (!r) {
      const p = where()
      warnings.push(
        warning(
          p.line,
          p.offset,
          'response stream has no `chat.completion.chunk` events; final turn not loaded',
        ),
      )
      return undefined
    }
    notes.push(`response reassembled from ${r.chunks} stream chunks`)
    if (r.truncated) {
      const p = where()
      warnings.push(
        warning(
          p.line,
          p.offset,
          'response stream ends without `finish_reason` (cut off?): final turn may be partial',
        ),
      )
    }
    body = r.body
  }
  const choices = isObject(body) ? arr(body.choices) : []
  const choice = choices[0]
  if (!isObject(body) || !isObject(choice) || !isObject(choice.message)) {
    const p = where()
    const error =
      isObject(body) && isObject(body.error)
        ? ` (API error: ${str(body.error.message) ?? 'unknown'})`
        : ''
    warnings.push(
      warning(
        p.line,
        p.offset,
        `expected the response to have \`choices[0].message\`${error}; final turn not loaded`,
      ),
    )
    return undefined
  }
  if (choices.length > 1)
    notes.push(`response has ${choices.length} choices; only choice 0 is loaded`)
  const problems: string[] = []
  const outcome = parseChatMessage(choice.message, ids.next(str(body.id), index), problems)
  for (const p of problems) {
    const pos = where()
    warnings.push(warning(pos.line, pos.offset, `response message: ${p}`))
  }
  if (!outcome.ok) {
    const pos = where()
    warnings.push(warning(pos.line, pos.offset, `response message skipped: ${outcome.problem}`))
    return undefined
  }
  const usage = usageFromChat(body.usage)
  const created = num(body.created)
  const { message: _msg, ...choiceRest } = choice
  const { choices: _c, ...envelope } = body
  messages.push({
    ...outcome.message,
    ...(str(body.model) !== undefined ? { model: str(body.model) } : {}),
    ...(created !== undefined ? { timestamp: new Date(created * 1000).toISOString() } : {}),
    ...(usage ? { usage } : {}),
    source: { ...outcome.message.source, fromResponse: true, choice: choiceRest },
  })
  return envelope
}
