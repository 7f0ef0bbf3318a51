import { isObject, num, parseSse } from '../util.ts'

/**
 * A streamed Responses call (SSE). `response.completed` (or `.incomplete` / `.failed`) carries
 * the full response object: prefer it. A capture cut before that event is rebuilt from the
 * `response.output_item.done` items (ordered by `output_index`) and flagged as partial.
 */
export interface ResponsesStream {
  readonly body: Record<string, unknown>
  readonly events: number
  /** True when no final `response.*` event with the full object was seen. */
  readonly partial: boolean
}

const FINAL = new Set([
  'response.completed',
  'response.incomplete',
  'response.failed',
  'response.done',
])

export function isResponsesStream(text: string): boolean {
  return (
    /"type"\s*:\s*"response\.(created|in_progress|output_item|output_text|completed)/.test(
      text.slice(0, 4000),
    ) || /^event:\s*response\./m.test(text.slice(0, 4000))
  )
}

export function readResponsesStream(text: string): ResponsesStream | null {
  const events = parseSse(text)
  let final: Record<string, unknown> | undefined
  let started: Record<string, unknown> | undefined
  const done = new Map<number, unknown>()
  let count = 0
  for (const e of events) {
    const d = e.data
    if (!isObject(d)) continue
    const type = typeof d.type === 'string' ? d.type : e.event
    if (!type?.startsWith('response.')) continue
    count++
    if (type && FINAL.has(type) && isObject(d.response)) final = d.response
    if (type === 'response.created' && isObject(d.response)) started = d.response
    if (type === 'response.output_item.done' && isObject(d.item)) {
      done.set(num(d.output_index) ?? done.size, d.item)
    }
  }
  if (count === 0) return null
  if (final && Array.isArray(final.output)) return { body: final, events: count, partial: false }
  const output = [...done.entries()].sort((a, b) => a[0] - b[0]).map(([, item]) => item)
  return { body: { ...(started ?? { object: 'response' }), output }, events: count, partial: true }
}
