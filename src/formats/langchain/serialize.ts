import type {
  Conversation,
  Message,
  Part,
  ResultContent,
  ToolCallPart,
} from '../../engine/model.ts'
import { arr, isObject, str } from '../util.ts'
import { lcName, type Wrapper } from './shape.ts'
import { parseJson } from '../../engine/json.ts'

type Obj = Record<string, unknown>

function argsOf(c: ToolCallPart): unknown {
  if (c.args !== undefined) return c.args
  try {
    return parseJson(c.argsRaw) as unknown
  } catch {
    return {}
  }
}

function imageBlock(p: Extract<Part, { kind: 'image' }>): Obj {
  if (isObject(p.meta?.block)) return { ...p.meta.block }
  const url = p.data !== undefined ? `data:${p.mediaType ?? ''};base64,${p.data}` : (p.url ?? '')
  return { type: 'image_url', image_url: { url } }
}

/** A canonical part → a content block (undefined: the part lives elsewhere, e.g. `tool_calls`). */
function block(p: Part | ResultContent): unknown {
  const b = isObject(p.meta?.block) ? { ...p.meta.block } : undefined
  switch (p.kind) {
    case 'text':
      return p.meta?.block === 'string' ? p.text : { ...(b ?? { type: 'text' }), text: p.text }
    case 'reasoning':
      if (p.meta?.origin === 'additional_kwargs') return undefined
      if (b?.type === 'thinking') return { ...b, thinking: p.text }
      if (b?.type === 'redacted_thinking') return b
      if (b && 'reasoning' in b) return { ...b, reasoning: p.text }
      if (b) return b
      return { type: 'reasoning', reasoning: p.text }
    case 'tool_call':
      if (p.meta?.origin !== 'content') return undefined
      return b?.type === 'tool_use'
        ? { ...b, id: p.callId, name: p.name, input: argsOf(p) }
        : { ...(b ?? { type: 'tool_call' }), id: p.callId, name: p.name, args: argsOf(p) }
    case 'tool_result':
      return {
        ...(b ?? { type: 'tool_result' }),
        tool_use_id: p.callId,
        content: p.content.map(block),
      }
    case 'image':
      return imageBlock(p)
    case 'file':
      return (
        b ?? {
          type: 'file',
          ...(p.url ? { url: p.url } : {}),
          ...(p.data ? { base64: p.data } : {}),
        }
      )
    case 'opaque':
      return p.raw
  }
}

function content(parts: readonly (Part | ResultContent)[], asString: boolean): unknown {
  const blocks = parts.map(block).filter((b) => b !== undefined)
  const plain = (b: unknown) =>
    typeof b === 'string' || (isObject(b) && b.type === 'text' && Object.keys(b).length === 2)
  // The source had a plain string: keep it a string while the parts still allow it.
  if (asString && blocks.length <= 1 && blocks.every(plain)) {
    const b = blocks[0]
    return b === undefined ? '' : typeof b === 'string' ? b : (str((b as Obj).text) ?? '')
  }
  return blocks
}

/** The message payload (`data` / `kwargs` / the dict itself) rebuilt from parts. */
function payload(m: Message): Obj {
  const src = m.source ?? {}
  const fields: Obj = isObject(src.fields) ? { ...src.fields } : {}
  const asString = src.contentString !== false
  if (m.role === 'tool') {
    const r = m.parts.find((p) => p.kind === 'tool_result')
    const data: Obj = { ...fields, content: content(r?.content ?? [], asString) }
    if (r && (r.callId !== null || src.hadCallId === true)) data.tool_call_id = r.callId
    if (r?.isError) data.status = 'error'
    else if (data.status === 'error') data.status = 'success'
    return data
  }
  const kwargs = isObject(fields.additional_kwargs) ? { ...fields.additional_kwargs } : undefined
  const rc = m.parts.find((p) => p.kind === 'reasoning' && p.meta?.origin === 'additional_kwargs')
  if (kwargs && rc?.kind === 'reasoning') kwargs.reasoning_content = rc.text
  const data: Obj = { ...fields, ...(kwargs ? { additional_kwargs: kwargs } : {}) }
  data.content = content(
    m.parts.filter((p) => p.kind !== 'tool_call' || p.meta?.origin === 'content'),
    asString,
  )
  const calls = m.parts.filter((p) => p.kind === 'tool_call')
  const listed = calls.filter(
    (c) =>
      c.meta?.origin === 'tool_calls' ||
      isObject(c.meta?.alsoInToolCalls) ||
      (c.meta?.origin === undefined && m.role === 'assistant'),
  )
  if (listed.length > 0 || src.hadToolCalls === true) {
    data.tool_calls = listed.map((c) => {
      const entry = isObject(c.meta?.entry)
        ? c.meta.entry
        : isObject(c.meta?.alsoInToolCalls)
          ? c.meta.alsoInToolCalls
          : { type: 'tool_call' }
      return { ...entry, name: c.name, args: argsOf(c), id: c.callId }
    })
  }
  const invalid = calls.filter((c) => c.meta?.origin === 'invalid')
  if (invalid.length > 0 || src.hadInvalid === true) {
    data.invalid_tool_calls = invalid.map((c) => ({
      ...(isObject(c.meta?.entry) ? c.meta.entry : {}),
      name: c.name,
      args: c.argsRaw,
      id: c.callId,
    }))
  }
  return data
}

const TYPE_FOR_ROLE: Readonly<Record<string, string>> = {
  user: 'human',
  assistant: 'ai',
  system: 'system',
  tool: 'tool',
}

function write(m: Message, index: number): unknown {
  const src = m.source ?? {}
  const type = str(src.type) ?? TYPE_FOR_ROLE[m.role] ?? 'human'
  const data = payload(m)
  // Messages without an `id` import with positional ids (`m<index>`): when a compaction removed
  // or inserted messages before this one, write its id (LangChain's own message `id` field).
  if (str(data.id) === undefined && m.id !== `m${index}`) data.id = m.id
  const outer = isObject(src.outer) ? src.outer : {}
  if (src.form === 'lc') {
    return {
      ...outer,
      lc: 1,
      type: 'constructor',
      id: Array.isArray(src.lcId) ? src.lcId : ['langchain_core', 'messages', lcName(type)],
      kwargs: data,
    }
  }
  if (src.form === 'data') return { ...outer, type: str(outer.type) ?? type, data }
  return { ...data, type: str(data.type) ?? type }
}

/** Write the messages back in the form and wrapper they came in (plain dicts by default). */
export function serialize(conversation: Conversation): string {
  const wrapper = (conversation.source?.wrapper ?? { kind: 'array' }) as Wrapper
  const inputs = conversation.messages.filter((m) => m.source?.fromOutput !== true).map(write)
  const output = conversation.messages.find((m) => m.source?.fromOutput === true)
  switch (wrapper.kind) {
    case 'state':
      return JSON.stringify({ ...wrapper.envelope, messages: inputs }, null, 2)
    case 'langsmith': {
      if (Object.keys(wrapper.envelope).length === 0) return JSON.stringify([inputs], null, 2)
      const env = wrapper.envelope
      const inObj = isObject(env.inputs) ? env.inputs : {}
      const outObj = isObject(env.outputs) ? env.outputs : undefined
      let outputs: unknown = outObj
      if (outObj && output) {
        const gens = arr(outObj.generations)
        const row = Array.isArray(gens[0]) ? gens[0] : gens
        const first = isObject(row[0]) ? row[0] : {}
        const gen = { ...first, message: write(output, conversation.messages.indexOf(output)) }
        const newRow = [gen, ...row.slice(1)]
        outputs = {
          ...outObj,
          generations: Array.isArray(gens[0]) ? [newRow, ...gens.slice(1)] : newRow,
        }
      }
      return JSON.stringify(
        {
          ...env,
          inputs: { ...inObj, messages: wrapper.nested ? [inputs] : inputs },
          ...(outputs ? { outputs } : {}),
        },
        null,
        2,
      )
    }
    default:
      return JSON.stringify(inputs, null, 2)
  }
}
