import type { Message, Part, ReportedUsage, Role } from '../../engine/model.ts'
import { isObject, lineOfOffset, num } from '../util.ts'

type Obj = Record<string, unknown>

/** A message under construction (the model types are readonly). */
export interface Draft {
  id: string
  role: Role
  parts: Part[]
  injected?: boolean
  model?: string
  timestamp?: string
  usage?: ReportedUsage
  events: Obj[]
  responseId?: string
}

/** Where an event starts in the text, found by its id (`"id": 12`). */
export function locateEvent(text: string, id: unknown): { line: number; offset: number } {
  if (id === undefined) return { line: 0, offset: 0 }
  const m = new RegExp(
    `"id"\\s*:\\s*${JSON.stringify(id).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*[,}]`,
  ).exec(text)
  return m ? { line: lineOfOffset(text, m.index), offset: m.index } : { line: 0, offset: 0 }
}

/** litellm `usage` of the model_response (prompt_tokens already includes cached input). */
export function usageOf(usage: unknown): ReportedUsage | undefined {
  if (!isObject(usage)) return undefined
  const prompt = num(usage.prompt_tokens)
  if (prompt === undefined) return undefined
  const details = isObject(usage.prompt_tokens_details) ? usage.prompt_tokens_details : {}
  const read = num(usage.cache_read_input_tokens) ?? num(details.cached_tokens) ?? 0
  const write = num(usage.cache_creation_input_tokens) ?? 0
  return {
    contextTokens: prompt,
    inputTokens: Math.max(0, prompt - read - write),
    outputTokens: num(usage.completion_tokens),
    cacheReadTokens: read,
    cacheWriteTokens: write,
    source: 'openhands model_response.usage',
  }
}

export function finish(d: Draft): Message {
  return {
    id: d.id,
    role: d.role,
    parts: d.parts,
    ...(d.injected ? { injected: true } : {}),
    ...(d.model ? { model: d.model } : {}),
    ...(d.timestamp ? { timestamp: d.timestamp } : {}),
    ...(d.usage ? { usage: d.usage } : {}),
    source: { events: d.events },
  }
}
