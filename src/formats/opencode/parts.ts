import type { Part, ReportedUsage, ToolResultPart } from '../../engine/model.ts'
import {
  base64DecodedBytes,
  callFromObjectArgs,
  isObject,
  num,
  parseDataUrl,
  str,
} from '../util.ts'

type Obj = Record<string, unknown>

/** What opencode sends the model instead of a pruned tool output (`state.time.compacted`). */
export const CLEARED_OUTPUT = '[Old tool result content cleared]'
/** What opencode sends the model for a `compaction` part (the request for a summary). */
export const COMPACTION_PROMPT = 'What did we do so far?'

/** Part types the model sees; everything else is envelope data kept for the round trip. */
export const MODEL_PARTS = new Set(['text', 'reasoning', 'tool', 'file', 'compaction'])

/** A non-model part (step-start, patch…) and the model part it preceded (null = at the end). */
export interface Extra {
  /** The id of the model part this envelope part stood before (null: after the last one). */
  readonly before: string | null
  /**
   * The position of that model part in its step, when it has no id (a hand-edited or truncated
   * export): without it a `step-start` before an id-less part was written after the content,
   * and the re-import read an empty extra step.
   */
  readonly at?: number
  readonly part: Obj
}

export function usageFrom(tokens: unknown, source: string): ReportedUsage | undefined {
  if (!isObject(tokens)) return undefined
  const input = num(tokens.input)
  const output = num(tokens.output)
  const cache = isObject(tokens.cache) ? tokens.cache : {}
  const read = num(cache.read) ?? 0
  const write = num(cache.write) ?? 0
  if (input === undefined && output === undefined) return undefined
  return {
    contextTokens: (input ?? 0) + read + write,
    inputTokens: input,
    outputTokens: output,
    cacheReadTokens: read,
    cacheWriteTokens: write,
    reasoningTokens: num(tokens.reasoning),
    source,
  }
}

export function without(obj: Obj, ...keys: string[]): Obj {
  const out: Obj = {}
  for (const [k, v] of Object.entries(obj)) if (!keys.includes(k)) out[k] = v
  return out
}

/** Signatures / encrypted reasoning live in provider metadata: counted, never shown. */
function reasoningOpaque(part: Obj): { label: string; bytes: number } | undefined {
  const meta = isObject(part.metadata) ? part.metadata : undefined
  if (!meta) return undefined
  for (const provider of Object.values(meta)) {
    if (!isObject(provider)) continue
    for (const [key, value] of Object.entries(provider)) {
      if (typeof value === 'string' && /signature|encrypted/i.test(key) && value.length > 0) {
        return { label: key, bytes: value.length }
      }
    }
  }
  return undefined
}

interface Mapped {
  readonly part: Part
  readonly result?: ToolResultPart
}

/**
 * The key a part is known by (extras are placed before it, results matched to it): its id, or for
 * a malformed id (a number…) that value as text, so the order of the parts still survives a write.
 */
export function partKeyOf(id: unknown): string | undefined {
  if (typeof id === 'string') return id
  return id === undefined || id === null ? undefined : `#${JSON.stringify(id)}`
}

/** One model-visible opencode part → canonical part (+ the tool result it carries). */
export function mapPart(part: Obj): Mapped {
  const partId = partKeyOf(part.id)
  switch (part.type) {
    case 'text': {
      const meta: Obj = { partId, raw: without(part, 'text') }
      if (part.synthetic === true) meta.synthetic = true
      return { part: { kind: 'text', text: str(part.text) ?? '', meta } }
    }
    case 'reasoning': {
      const opaque = reasoningOpaque(part)
      return {
        part: {
          kind: 'reasoning',
          text: str(part.text) ?? '',
          ...(opaque ? { opaque } : {}),
          meta: { partId, raw: without(part, 'text') },
        },
      }
    }
    case 'file': {
      const url = str(part.url) ?? ''
      const data = parseDataUrl(url)
      return {
        part: {
          kind: 'file',
          mediaType: str(part.mime),
          filename: str(part.filename),
          ...(data ? { data: data.data } : { url }),
          bytes: data ? base64DecodedBytes(data.data) : 0,
          meta: { partId, raw: without(part, 'url') },
        },
      }
    }
    case 'compaction':
      return {
        part: { kind: 'text', text: COMPACTION_PROMPT, meta: { partId, compaction: part } },
      }
    default:
      return mapTool(part)
  }
}

function mapTool(part: Obj): Mapped {
  const partId = partKeyOf(part.id)
  const state = isObject(part.state) ? part.state : {}
  const callId = typeof part.callID === 'string' ? part.callID : null
  const name = str(part.tool) ?? ''
  const rawState = without(state, 'input', 'output', 'error')
  const call = callFromObjectArgs(
    { callId, name, meta: { partId, raw: { ...without(part, 'state'), state: rawState } } },
    state.input,
  )
  const status = str(state.status)
  if (status !== 'completed' && status !== 'error') return { part: call }
  const time = isObject(state.time) ? state.time : {}
  const isError = status === 'error'
  const original = isError ? (str(state.error) ?? '') : stringOutput(state.output)
  const compacted = !isError && time.compacted !== undefined && time.compacted !== null
  const meta: Obj = { partId }
  if (compacted) {
    meta.compacted = true
    meta.originalOutput = state.output
  } else if (!isError && typeof state.output !== 'string') {
    meta.outputValue = state.output
  }
  const content: ToolResultPart['content'] = [
    { kind: 'text', text: compacted ? CLEARED_OUTPUT : original },
  ]
  return { part: call, result: { kind: 'tool_result', callId, name, content, isError, meta } }
}

function stringOutput(output: unknown): string {
  if (typeof output === 'string') return output
  return output === undefined || output === null ? '' : JSON.stringify(output)
}

/** Normalise the three shapes to `{info, parts}` records (SQLite rows keep their envelopes). */
