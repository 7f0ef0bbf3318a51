import type { ReportedUsage, TextPart, ToolDefinition } from '../../engine/model.ts'
import { describe, isObject, num, str } from '../util.ts'
import type { Warn } from './blocks.ts'
import { extras } from './blocks.ts'

// Request-body pieces around the messages: system prompt, tools, usage, compaction settings.

/** Anthropic `usage` → ReportedUsage: the prompt is input + cache read + cache creation. */
export function usageFrom(usage: unknown): ReportedUsage | undefined {
  if (!isObject(usage)) return undefined
  const input = num(usage.input_tokens)
  const read = num(usage.cache_read_input_tokens)
  const write = num(usage.cache_creation_input_tokens)
  const any = input !== undefined || read !== undefined || write !== undefined
  return {
    ...(any ? { contextTokens: (input ?? 0) + (read ?? 0) + (write ?? 0) } : {}),
    inputTokens: input,
    outputTokens: num(usage.output_tokens),
    cacheReadTokens: read,
    cacheWriteTokens: write,
    source: 'anthropic usage',
  }
}

/** The trigger of a server-side compaction edit (`context_management.edits`), for the marker. */
export function compactTrigger(body: Record<string, unknown>): string | undefined {
  const cm = isObject(body.context_management) ? body.context_management : undefined
  const edits = cm && Array.isArray(cm.edits) ? cm.edits : []
  for (const e of edits) {
    if (!isObject(e) || !str(e.type)?.startsWith('compact')) continue
    const t = isObject(e.trigger) ? e.trigger : undefined
    return t ? `${str(t.type) ?? 'trigger'} >= ${String(t.value)}` : str(e.type)
  }
  return undefined
}

export function systemFrom(warn: Warn, system: unknown): { parts: TextPart[]; shape?: string } {
  if (system === undefined || system === null) return { parts: [] }
  if (typeof system === 'string')
    return { parts: [{ kind: 'text', text: system }], shape: 'string' }
  if (!Array.isArray(system)) {
    warn(
      ['system'],
      `expected a string or an array of text blocks, got ${describe(system)}; ignored`,
    )
    return { parts: [] }
  }
  const parts: TextPart[] = []
  system.forEach((block, i) => {
    if (isObject(block) && typeof block.text === 'string') {
      const ex = extras(block, ['type', 'text'])
      parts.push({ kind: 'text', text: block.text, ...(ex ? { meta: { extras: ex } } : {}) })
    } else warn(['system', i], 'expected a text block `{type:"text", text}`; skipped')
  })
  return { parts, shape: 'array' }
}

export function toolsFrom(warn: Warn, tools: unknown): ToolDefinition[] {
  if (!Array.isArray(tools)) return []
  const out: ToolDefinition[] = []
  tools.forEach((t, i) => {
    if (!isObject(t)) {
      warn(['tools', i], `expected a tool definition object, got ${describe(t)}; skipped`)
      return
    }
    const name = str(t.name) ?? str(t.type) ?? `tool ${i}`
    out.push({
      name,
      ...(str(t.description) ? { description: str(t.description) } : {}),
      raw: JSON.stringify(t),
    })
  })
  return out
}
