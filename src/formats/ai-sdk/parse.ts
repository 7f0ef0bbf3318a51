import type { Message, Part, Role, ToolResultPart } from '../../engine/model.ts'
import type { ParseResult, ParseWarning, SniffedInput } from '../types.ts'
import {
  arr,
  callFromObjectArgs,
  fail,
  failAtInput,
  IdAllocator,
  isObject,
  ok,
  parseError,
  str,
  warning,
} from '../util.ts'
import { classify, messageList } from './detect.ts'
import { media, modelPart, without } from './parts.ts'

type Obj = Record<string, unknown>

/** A UI part that the model never sees (step-start, data-*, sources) and the part it preceded. */
export interface Extra {
  readonly before: number | null
  readonly part: Obj
}

const ROLES = new Set<Role>(['system', 'user', 'assistant', 'tool'])

/** Parse AI-SDK ModelMessage or UIMessage arrays. Never throws. */
export function parse(input: SniffedInput): ParseResult {
  if (input.kind !== 'json') {
    return failAtInput(input, 'expected a JSON array of AI SDK messages')
  }
  const found = messageList(input.value)
  if (!found)
    return fail(parseError(1, 0, 'expected an array of AI SDK messages (or `{messages: […]}`)'))
  const shape = classify(input.value)?.shape ?? 'model'
  const warnings: ParseWarning[] = []
  const messages: Message[] = []
  const ids = new IdAllocator()
  found.list.forEach((m, i) => {
    if (!isObject(m) || typeof m.role !== 'string' || !ROLES.has(m.role as Role)) {
      warnings.push(
        warning(0, 0, `messages[${i}]: expected {role: system|user|assistant|tool, …}, skipped`),
      )
      return
    }
    if (shape === 'ui') uiMessage(m, ids, messages)
    else modelMessage(m, ids, messages)
  })
  if (messages.length === 0)
    return fail(
      parseError(1, 0, 'no AI SDK messages found (expected objects with `role`)'),
      warnings,
    )
  const envelope = isObject(input.value) ? without(input.value, 'messages') : undefined
  return ok(
    {
      meta: {
        format: 'ai-sdk',
        wrapper: shape === 'ui' ? 'AI SDK UIMessage[]' : 'AI SDK ModelMessage[]',
      },
      system: [],
      tools: [],
      messages,
      markers: [],
      source: { shape, ...(envelope ? { envelope } : {}) },
    },
    warnings,
  )
}

function modelMessage(m: Obj, ids: IdAllocator, out: Message[]): void {
  const role = m.role as Role
  const parts: Part[] =
    typeof m.content === 'string'
      ? m.content === ''
        ? []
        : [{ kind: 'text', text: m.content }]
      : arr(m.content).map(modelPart)
  out.push({
    id: ids.next(str(m.id), out.length),
    role,
    parts,
    source: { raw: without(m, 'content'), contentString: typeof m.content === 'string' },
  })
}

/** UIMessage tool part (`tool-<name>`, `dynamic-tool`, v4 `tool-invocation`) → call (+ result). */
function uiTool(p: Obj): { call: Part; result?: ToolResultPart } {
  const inv = p.type === 'tool-invocation' && isObject(p.toolInvocation) ? p.toolInvocation : p
  const name =
    p.type === 'dynamic-tool' || inv !== p ? (str(inv.toolName) ?? '') : String(p.type).slice(5)
  const callId = typeof inv.toolCallId === 'string' ? inv.toolCallId : null
  const v4 = inv !== p
  const state = str(inv.state) ?? ''
  const raw = v4
    ? { ...p, toolInvocation: without(inv, 'args', 'result') }
    : without(p, 'input', 'output', 'errorText')
  const call = callFromObjectArgs(
    { callId, name, ...(p.providerExecuted === true ? { serverSide: true } : {}), meta: { raw } },
    v4 ? inv.args : inv.input,
  )
  const output = v4 ? inv.result : inv.output
  if (state === 'output-available' || state === 'result') {
    const text = typeof output === 'string' ? output : JSON.stringify(output ?? null)
    return {
      call,
      result: {
        kind: 'tool_result',
        callId,
        name,
        content: [{ kind: 'text', text }],
        isError: false,
        meta: { json: typeof output !== 'string' },
      },
    }
  }
  if (state === 'output-error') {
    return {
      call,
      result: {
        kind: 'tool_result',
        callId,
        name,
        content: [{ kind: 'text', text: str(inv.errorText) ?? '' }],
        isError: true,
      },
    }
  }
  return { call } // input-streaming / input-available / partial-call / call: pending
}

function isToolPart(t: string): boolean {
  return (t.startsWith('tool-') || t === 'dynamic-tool') && t !== 'tool-call' && t !== 'tool-result'
}

/** One UIMessage → one canonical message per step (+ a tool message with that step's results). */
function uiMessage(m: Obj, ids: IdAllocator, out: Message[]): void {
  const uiId = str(m.id) ?? `m${out.length}`
  const role = m.role as Role
  const raw = without(m, 'parts', 'content')
  const rawParts = Array.isArray(m.parts) ? m.parts.filter(isObject) : []
  if (rawParts.length === 0 && typeof m.content === 'string')
    rawParts.push({ type: 'text', text: m.content })
  const steps: Obj[][] = [[]]
  for (const p of rawParts) {
    const cur = steps[steps.length - 1] ?? []
    if (
      role === 'assistant' &&
      p.type === 'step-start' &&
      cur.some((q) => q.type === 'step-start' || isModelPart(q))
    ) {
      steps.push([p])
    } else cur.push(p)
  }
  steps.forEach((step, k) => {
    const stepId = ids.next(k === 0 ? uiId : `${uiId}#step${k + 1}`, out.length)
    const parts: Part[] = []
    const results: ToolResultPart[] = []
    const extras: Extra[] = []
    let waiting: Obj[] = []
    for (const p of step) {
      if (!isModelPart(p)) {
        waiting.push(p)
        continue
      }
      for (const w of waiting) extras.push({ before: parts.length, part: w })
      waiting = []
      const t = String(p.type)
      if (isToolPart(t)) {
        const { call, result } = uiTool(p)
        parts.push(call)
        if (result && call.kind === 'tool_call' && call.serverSide) parts.push(result)
        else if (result) results.push(result)
      } else if (t === 'text' || t === 'reasoning') {
        parts.push({ kind: t, text: str(p.text) ?? '', meta: { raw: without(p, 'text') } })
      } else if (t === 'file') {
        parts.push(
          media(
            str(p.mediaType)?.startsWith('image/') ? 'image' : 'file',
            p.url,
            str(p.mediaType),
            without(p, 'url'),
          ),
        )
      }
    }
    for (const w of waiting) extras.push({ before: null, part: w })
    out.push({
      id: stepId,
      role,
      parts,
      source: { uiId, step: k, extras, ...(k === 0 ? { raw } : {}) },
    })
    if (results.length > 0) {
      out.push({
        id: ids.next(`${stepId}#results`, out.length),
        role: 'tool',
        parts: results,
        source: { uiId, results: true },
      })
    }
  })
}

function isModelPart(p: Obj): boolean {
  const t = str(p.type) ?? ''
  return t === 'text' || t === 'reasoning' || t === 'file' || isToolPart(t)
}
