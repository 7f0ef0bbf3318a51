import { isObject, parseSse } from '../util.ts'
import { KeyReader } from './parts.ts'

type Json = Record<string, unknown>

/** A streamed generateContent response folded into one response object. */
export interface MergedStream {
  readonly response: Json | null
  readonly problems: readonly string[]
}

function candidatesOf(chunk: Json): unknown[] {
  const c = new KeyReader(chunk).get('candidates')
  return Array.isArray(c) ? c : []
}

/**
 * Concatenate the parts of streamed response chunks (`data: {candidates…}` events, or the JSON
 * array `streamGenerateContent` returns without `alt=sse`). Consecutive text fragments of the same
 * kind are joined so a streamed answer is one text part, as in a non-streamed response; a
 * thoughtSignature arriving on a later fragment moves onto the joined part.
 */
export function mergeChunks(chunks: readonly unknown[]): MergedStream {
  const problems: string[] = []
  const parts: Json[] = []
  let envelope: Json = {}
  let candidate: Json = {}
  let role: unknown = 'model'
  let finished = false
  let skipped = 0
  for (const chunk of chunks) {
    if (!isObject(chunk)) {
      skipped++
      continue
    }
    const { candidates: _a, ...rest } = chunk
    envelope = { ...envelope, ...rest }
    const first = candidatesOf(chunk)[0]
    if (!isObject(first)) continue
    const { content, ...candRest } = first
    candidate = { ...candidate, ...candRest }
    if (candRest.finishReason !== undefined || candRest.finish_reason !== undefined) finished = true
    if (!isObject(content)) continue
    if (content.role !== undefined) role = content.role
    for (const p of Array.isArray(content.parts) ? content.parts : []) {
      if (!isObject(p)) continue
      const prev = parts[parts.length - 1]
      if (prev && canJoin(prev, p)) {
        prev.text = String(prev.text) + String(p.text)
        for (const k of ['thoughtSignature', 'thought_signature']) if (k in p) prev[k] = p[k]
      } else parts.push({ ...p })
    }
  }
  if (skipped > 0) problems.push(`${skipped} stream chunk(s) were not JSON objects, skipped`)
  if (parts.length === 0 && Object.keys(envelope).length === 0) return { response: null, problems }
  if (!finished) problems.push('stream ended without a finishReason (cut off?): kept what arrived')
  const response = { ...envelope, candidates: [{ ...candidate, content: { role, parts } }] }
  return { response, problems }
}

function canJoin(prev: Json, next: Json): boolean {
  if (typeof prev.text !== 'string' || typeof next.text !== 'string') return false
  if ('thoughtSignature' in prev || 'thought_signature' in prev) return false
  return (prev.thought === true) === (next.thought === true)
}

/** SSE text → response chunks. */
export function chunksFromSse(text: string): { chunks: unknown[]; problems: string[] } {
  const chunks: unknown[] = []
  const problems: string[] = []
  for (const e of parseSse(text)) {
    if (isObject(e.data)) chunks.push(e.data)
    else
      problems.push(`stream event is not a JSON object (${String(e.data).slice(0, 40)}…), skipped`)
  }
  return { chunks, problems }
}
