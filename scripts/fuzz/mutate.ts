/**
 * Mutations of a transcript, as plain data (`Mutation[]`), so that fast-check can generate and
 * shrink them in the quick run and the long run can draw them from a seeded PRNG: an input is
 * always `applyMutations(seed text, plan)`, reproducible from the plan alone.
 */
import { parseJsonBounded } from '../../src/engine/json.ts'
import type { Rng } from '../sample/prng.ts'

export const OPS = [
  'truncate',
  'deleteSpan',
  'insertToken',
  'replaceToken',
  'dupLine',
  'dropLine',
  'swapLines',
  'json',
  'json',
  'json',
  'json',
  'json',
  'deepNest',
  'invalidUtf8',
  'crlf',
  'bom',
  'unicode',
  'hugeLine',
  'nul',
] as const
export type Op = (typeof OPS)[number]

export interface Mutation {
  readonly op: Op
  /** Where, as a fraction of the current length (or line count). */
  readonly at: number
  /** Which token / node / sub-operation: taken modulo the choices. */
  readonly pick: number
  /** A size: span length, nesting depth, repeat count… (bounded by each op). */
  readonly size: number
}

const TOKENS = [
  '{',
  '}',
  '[',
  ']',
  '"',
  ',',
  ':',
  'null',
  '1e309',
  '-0',
  '\\',
  '\\u',
  '\n',
  '\r\n',
  '"type":',
  '"role":"tool",',
  '"id":"",',
  '"tool_call_id":"x",',
  '"content":[',
  '{"type":"text","text":""}',
  'true',
  '#### ',
  '> ',
  '# aider chat started at 2024-01-01 00:00:00\n',
  '\ud800',
  '😀',
  '\u202e',
]
const UNICODE = [
  'é',
  '😀',
  '\u0301',
  '\u202e',
  '\ufeff',
  '\ud83d',
  '\udc00',
  '中文',
  '\u2028',
  '\t',
]

/** Bytes for the importer: the text as UTF-8 with any invalid-UTF-8 / NUL insertions applied. */
export interface MutatedInput {
  readonly bytes: Uint8Array
  /** The same as text (lossy where invalid bytes were inserted), for line checks. */
  readonly text: string
}

const enc = new TextEncoder()

export function applyMutations(seed: string, plan: readonly Mutation[]): MutatedInput {
  let text = seed
  const byteEdits: { at: number; bytes: number[] }[] = []
  for (const m of plan) {
    const at = Math.max(0, Math.min(text.length, Math.floor(m.at * text.length)))
    switch (m.op) {
      case 'truncate':
        text = text.slice(0, at)
        break
      case 'deleteSpan':
        text = text.slice(0, at) + text.slice(at + 1 + (m.size % 64))
        break
      case 'insertToken':
        text = text.slice(0, at) + (TOKENS[m.pick % TOKENS.length] as string) + text.slice(at)
        break
      case 'replaceToken': {
        const t = TOKENS[m.pick % TOKENS.length] as string
        text = text.slice(0, at) + t + text.slice(at + t.length)
        break
      }
      case 'dupLine':
      case 'dropLine':
      case 'swapLines':
        text = lineOp(text, m)
        break
      case 'json':
        text = jsonOp(text, m)
        break
      case 'deepNest':
        text = jsonOp(text, { ...m, pick: m.pick * SUB_OPS.length + SUB_OPS.indexOf('deep') })
        break
      case 'invalidUtf8':
        byteEdits.push({ at: m.at, bytes: INVALID[m.pick % INVALID.length] as number[] })
        break
      case 'crlf':
        text = text.replace(/\r?\n/g, '\r\n')
        break
      case 'bom':
        text = '\ufeff' + text
        break
      case 'unicode':
        text = text.slice(0, at) + (UNICODE[m.pick % UNICODE.length] as string) + text.slice(at)
        break
      case 'hugeLine': {
        const line = (m.pick % 2 ? 'x' : 'ab ').repeat(20_000 + (m.size % 200_000))
        text = text.slice(0, at) + line + text.slice(at)
        break
      }
      case 'nul':
        text = text.slice(0, at) + '\u0000' + text.slice(at)
        break
    }
  }
  let bytes = enc.encode(text)
  for (const e of byteEdits) {
    const at = Math.floor(e.at * bytes.length)
    const next = new Uint8Array(bytes.length + e.bytes.length)
    next.set(bytes.subarray(0, at), 0)
    next.set(e.bytes, at)
    next.set(bytes.subarray(at), at + e.bytes.length)
    bytes = next
  }
  // The text as the importer will see it (lone surrogates became U+FFFD when encoded).
  return { bytes, text: new TextDecoder().decode(bytes) }
}

const INVALID = [
  [0xff],
  [0xc3],
  [0xed, 0xa0, 0x80],
  [0xf4, 0x90, 0x80, 0x80],
  [0x80, 0x80],
  [0xe2, 0x82],
]

function lineOp(text: string, m: Mutation): string {
  const lines = text.split('\n')
  if (lines.length === 0) return text
  const k = Math.min(lines.length - 1, Math.floor(m.at * lines.length))
  if (m.op === 'dupLine') lines.splice(k, 0, lines[k] as string)
  else if (m.op === 'dropLine') lines.splice(k, 1)
  else {
    const j = (k + 1 + (m.size % 5)) % lines.length
    const a = lines[k] as string
    lines[k] = lines[j] as string
    lines[j] = a
  }
  return lines.join('\n')
}

const SUB_OPS = [
  'delete',
  'null',
  'number',
  'string',
  'object',
  'array',
  'dupItem',
  'dropItem',
  'emptyId',
  'reuseId',
  'deep',
  'bigString',
] as const

type Json = unknown
type Container = Record<string, Json> | Json[]

/**
 * A structural edit: parse the whole text (or, for JSON Lines, the line at `at`), pick the
 * `pick`-th node in document order, edit it, write it back compactly. Text that is not JSON is
 * returned unchanged.
 */
function jsonOp(text: string, m: Mutation): string {
  const whole = tryParse(text)
  if (whole !== undefined) return write(editJson(whole.value, m))
  const lines = text.split('\n')
  const candidates = lines.flatMap((l, i) => (l.trimStart().startsWith('{') ? [i] : []))
  if (candidates.length === 0) return text
  const k = candidates[Math.floor(m.at * candidates.length) % candidates.length] as number
  const parsed = tryParse(lines[k] as string)
  if (parsed === undefined) return text
  lines[k] = write(editJson(parsed.value, m))
  return lines.join('\n')
}

/**
 * Deep values are spliced in as text after stringifying: `JSON.stringify` itself overflows the
 * stack on them, which is the very thing being tested downstream.
 */
const DEEP = '\u0000deep\u0000'
let deepText = ''

function write(value: Json): string {
  const out = JSON.stringify(value) ?? 'null'
  return deepText ? out.replace(JSON.stringify(DEEP), () => deepText) : out
}

function tryParse(text: string): { value: Json } | undefined {
  try {
    return { value: parseJsonBounded(text).value }
  } catch {
    return undefined
  }
}

function editJson(root: Json, m: Mutation): Json {
  deepText = ''
  // Collect (parent, key) slots in document order, iteratively.
  const slots: { parent: Container; key: string | number }[] = []
  const ids: string[] = []
  const stack: Json[] = [root]
  while (stack.length > 0 && slots.length < 50_000) {
    const v = stack.pop()
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) {
        slots.push({ parent: v, key: i })
        stack.push(v[i])
      }
    } else if (v !== null && typeof v === 'object') {
      const o = v as Record<string, Json>
      for (const k of Object.keys(o).reverse()) {
        slots.push({ parent: o, key: k })
        if (/id$/i.test(k) && typeof o[k] === 'string') ids.push(o[k] as string)
        stack.push(o[k])
      }
    }
  }
  if (slots.length === 0) return root
  const slot = slots[m.pick % slots.length] as { parent: Container; key: string | number }
  const sub = SUB_OPS[Math.floor(m.pick / Math.max(1, slots.length)) % SUB_OPS.length]
  const { parent, key } = slot
  const get = (): Json => (parent as Record<string, Json>)[key as string]
  const set = (v: Json) => {
    ;(parent as Record<string, Json>)[key as string] = v
  }
  switch (sub) {
    case 'delete':
      if (Array.isArray(parent)) parent.splice(key as number, 1)
      else delete parent[key as string]
      break
    case 'null':
      set(null)
      break
    case 'number':
      set(m.size % 3 === 0 ? -1 : m.size)
      break
    case 'string':
      set(String(get()).slice(0, m.size % 40))
      break
    case 'object':
      set({ type: 'text', text: typeof get() === 'string' ? get() : 'x' })
      break
    case 'array':
      set([get()])
      break
    case 'dupItem':
      if (Array.isArray(parent)) parent.splice(key as number, 0, structuredCloneSafe(get()))
      else set([get(), get()])
      break
    case 'dropItem':
      if (Array.isArray(parent)) parent.splice(0, 1)
      else set(undefined)
      break
    case 'emptyId':
      set('')
      break
    case 'reuseId':
      set(ids.length ? ids[m.size % ids.length] : 'dup')
      break
    case 'deep': {
      // Past the importers' depth bound (512) most of the time; sometimes far past it.
      const depth = 400 + (m.size % 9000)
      deepText = '['.repeat(depth) + (JSON.stringify(get()) ?? '0') + ']'.repeat(depth)
      set(DEEP)
      break
    }
    case 'bigString':
      set('y'.repeat(1000 + (m.size % 100_000)))
      break
  }
  return root
}

/** A copy that never recurses deeply (values here are at most a few levels deep, or deep arrays). */
function structuredCloneSafe(v: Json): Json {
  try {
    return structuredClone(v)
  } catch {
    return null
  }
}

/** A plan of 1–4 mutations drawn from the PRNG (the long run). */
export function randomPlan(rng: Rng): Mutation[] {
  const n = rng.int(1, 4)
  return Array.from({ length: n }, () => ({
    op: rng.pick(OPS),
    at: rng.next(),
    pick: rng.int(0, 1_000_000),
    size: rng.int(0, 1_000_000),
  }))
}
