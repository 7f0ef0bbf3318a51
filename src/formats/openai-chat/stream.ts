import { arr, isObject, num, parseSse, str } from '../util.ts'

/**
 * Reassembles a streamed Chat Completions response (SSE of `chat.completion.chunk` deltas) into
 * the body a non-streamed call would have returned, so the rest of the importer sees one shape.
 * Tool calls are keyed by `index` while streaming: `id`/`name` arrive once, `arguments` in pieces.
 */

interface CallAcc {
  id?: string
  type?: string
  name: string
  args: string
}

export interface StreamResult {
  /** `{id, object:'chat.completion', model, created, choices:[{message, finish_reason}], usage}` */
  readonly body: Record<string, unknown>
  readonly chunks: number
  /** Set when no terminating `finish_reason` was seen (cut-off capture). */
  readonly truncated: boolean
}

export function isChatChunkStream(text: string): boolean {
  return /"chat\.completion\.chunk"/.test(text.slice(0, 4000))
}

export function reassembleChatStream(text: string): StreamResult | null {
  const events = parseSse(text)
  let id: string | undefined
  let model: string | undefined
  let created: number | undefined
  let usage: unknown
  let role = 'assistant'
  let content: string | undefined
  let reasoning: string | undefined
  let reasoningField: 'reasoning_content' | 'reasoning' = 'reasoning_content'
  let finish: string | undefined
  let chunks = 0
  const calls = new Map<number, CallAcc>()
  for (const e of events) {
    const d = e.data
    if (!isObject(d) || d.object !== 'chat.completion.chunk') continue
    chunks++
    id ??= str(d.id)
    model ??= str(d.model)
    created ??= num(d.created)
    if (isObject(d.usage)) usage = d.usage
    for (const choice of arr(d.choices)) {
      if (!isObject(choice) || (num(choice.index) ?? 0) !== 0) continue // only the first choice
      if (typeof choice.finish_reason === 'string') finish = choice.finish_reason
      const delta = choice.delta
      if (!isObject(delta)) continue
      if (typeof delta.role === 'string') role = delta.role
      if (typeof delta.content === 'string') content = (content ?? '') + delta.content
      for (const field of ['reasoning_content', 'reasoning'] as const) {
        const piece = delta[field]
        if (typeof piece === 'string') {
          reasoning = (reasoning ?? '') + piece
          reasoningField = field
        }
      }
      for (const tc of arr(delta.tool_calls)) {
        if (!isObject(tc)) continue
        const index = num(tc.index) ?? calls.size
        const acc = calls.get(index) ?? { name: '', args: '' }
        if (typeof tc.id === 'string') acc.id = tc.id
        if (typeof tc.type === 'string') acc.type = tc.type
        const fn = isObject(tc.function) ? tc.function : undefined
        if (fn && typeof fn.name === 'string') acc.name += fn.name
        if (fn && typeof fn.arguments === 'string') acc.args += fn.arguments
        calls.set(index, acc)
      }
    }
  }
  if (chunks === 0) return null
  const message: Record<string, unknown> = { role, content: content ?? null }
  if (reasoning !== undefined) message[reasoningField] = reasoning
  if (calls.size > 0) {
    message.tool_calls = [...calls.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([, c]) => ({
        ...(c.id !== undefined ? { id: c.id } : {}),
        type: c.type ?? 'function',
        function: { name: c.name, arguments: c.args },
      }))
  }
  const body: Record<string, unknown> = {
    ...(id !== undefined ? { id } : {}),
    object: 'chat.completion',
    ...(created !== undefined ? { created } : {}),
    ...(model !== undefined ? { model } : {}),
    choices: [{ index: 0, message, finish_reason: finish ?? null }],
    ...(usage !== undefined ? { usage } : {}),
  }
  return { body, chunks, truncated: finish === undefined }
}
