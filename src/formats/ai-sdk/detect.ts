import type { Detection, SniffedInput } from '../types.ts'
import { arr, isObject } from '../util.ts'

/** ModelMessage (`{role, content}`) or UIMessage (`{id, role, parts}`) arrays. */
export type AiSdkShape = 'model' | 'ui'

/** The message list: a bare array, or `{messages: […]}` (a generateText call, a stored chat). */
export function messageList(value: unknown): { list: readonly unknown[]; wrapped: boolean } | null {
  if (Array.isArray(value)) return { list: value, wrapped: false }
  if (isObject(value) && Array.isArray(value.messages))
    return { list: value.messages, wrapped: true }
  return null
}

const ROLES = new Set(['system', 'user', 'assistant', 'tool'])
/** Part types only the AI SDK uses (OpenAI uses `tool_calls`, Anthropic `tool_use`). */
const MODEL_STRONG = new Set([
  'tool-call',
  'tool-result',
  'redacted-reasoning',
  'tool-approval-request',
  'tool-approval-response',
])

function typedParts(value: unknown): string[] | null {
  if (!Array.isArray(value)) return null
  const types: string[] = []
  for (const p of value) {
    if (!isObject(p) || typeof p.type !== 'string') return null
    types.push(p.type)
  }
  return types
}

function isUiStrong(t: string): boolean {
  return (
    t.startsWith('tool-') ||
    t.startsWith('data-') ||
    t === 'step-start' ||
    t === 'dynamic-tool' ||
    t.startsWith('source-')
  )
}

/** Classify the list and collect evidence (shared by detect and parse). */
export function classify(
  value: unknown,
): { shape: AiSdkShape; confidence: number; evidence: string[]; wrapped: boolean } | null {
  const found = messageList(value)
  if (!found || found.list.length === 0) return null
  const { list, wrapped } = found
  let ui = 0
  let uiStrong = 0
  let model = 0
  let modelStrong = 0
  let modelWeak = 0
  const strongTypes = new Set<string>()
  for (const m of list) {
    if (!isObject(m) || typeof m.role !== 'string' || !ROLES.has(m.role)) continue
    const partTypes = typedParts(m.parts)
    if (typeof m.id === 'string' && partTypes) {
      ui++
      const strong = partTypes.filter(isUiStrong)
      if (strong.length > 0) uiStrong++
      for (const t of strong)
        strongTypes.add(t.startsWith('tool-') && t !== 'tool-invocation' ? 'tool-<name>' : t)
      continue
    }
    const contentTypes = typeof m.content === 'string' ? [] : typedParts(m.content)
    if (contentTypes === null) continue
    model++
    const strong = contentTypes.filter((t) => MODEL_STRONG.has(t))
    if (strong.length > 0) modelStrong++
    for (const t of strong) strongTypes.add(t)
    // `image`/`file` with AI-SDK fields, `reasoning` parts: likely but not unique.
    const parts = arr(m.content).filter(isObject)
    if (
      parts.some(
        (p) =>
          (p.type === 'image' && 'image' in p) ||
          (p.type === 'file' && 'mediaType' in p) ||
          p.type === 'reasoning',
      )
    )
      modelWeak++
  }
  const n = list.length
  if (ui > 0 && ui >= model) {
    const evidence = [`${ui}/${n} elements are {id, role, parts[]} with typed parts (UIMessage)`]
    if (strongTypes.size > 0) evidence.push(`AI-SDK part types: ${[...strongTypes].join(', ')}`)
    const confidence = ui / n < 0.9 ? 0.5 : uiStrong > 0 ? 0.95 : 0.65
    return { shape: 'ui', confidence, evidence, wrapped }
  }
  if (modelStrong === 0 && modelWeak === 0) return null
  const evidence = [`${model}/${n} elements are {role, content}`]
  if (strongTypes.size > 0)
    evidence.push(`content parts typed ${[...strongTypes].join(', ')} (ModelMessage)`)
  else evidence.push(`${modelWeak} message(s) with AI-SDK image/file/reasoning parts`)
  const confidence = model / n < 0.9 ? 0.5 : modelStrong > 0 ? 0.93 : 0.7
  return { shape: 'model', confidence, evidence, wrapped }
}

/** formats.md §13/§16: parts typed `tool-call`/`tool-result` (ModelMessage) or UIMessage parts. */
export function detect(input: SniffedInput): Detection | null {
  if (input.kind !== 'json') return null
  const c = classify(input.value)
  if (!c) return null
  return {
    format: 'ai-sdk',
    confidence: c.wrapped ? c.confidence - 0.03 : c.confidence,
    evidence: c.evidence,
  }
}
