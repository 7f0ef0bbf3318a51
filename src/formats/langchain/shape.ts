import type { Detection, SniffedInput } from '../types.ts'
import { arr, isObject } from '../util.ts'

type Obj = Record<string, unknown>

/** How one message was written: plain dict, `messages_to_dict` `{type, data}`, or `lc:1`. */
export type MessageForm = 'dict' | 'data' | 'lc'

/** One message lifted out of its wrapper. */
export interface RawMessage {
  readonly type: string
  readonly data: Obj
  readonly form: MessageForm
  readonly lcId?: readonly unknown[]
  /** LangSmith: the message came from `outputs.generations`, not `inputs.messages`. */
  readonly fromOutput?: boolean
}

const TYPES = new Set(['human', 'ai', 'system', 'tool', 'function', 'chat', 'developer', 'remove'])
const CHUNK = /^(Human|AI|System|Tool|Function|Chat)MessageChunk$/

/** LangChain class names / chunk type names → the short `type` of a message. */
export function typeFromName(name: string): string | undefined {
  const m = /^(Human|AI|System|Tool|Function|Chat|Remove)Message(Chunk)?$/.exec(name)
  return m?.[1]?.toLowerCase()
}

function normType(type: unknown): string | undefined {
  if (typeof type !== 'string') return undefined
  if (TYPES.has(type)) return type
  return CHUNK.test(type) ? typeFromName(type) : undefined
}

/** Classify one element; null when it is not a LangChain message. */
export function rawMessage(value: unknown): RawMessage | null {
  if (!isObject(value)) return null
  if (value.lc === 1 && value.type === 'constructor' && Array.isArray(value.id)) {
    const name = value.id[value.id.length - 1]
    const type = typeof name === 'string' ? typeFromName(name) : undefined
    if (!type) return null
    return { type, data: isObject(value.kwargs) ? value.kwargs : {}, form: 'lc', lcId: value.id }
  }
  const type = normType(value.type)
  if (!type) return null
  if (isObject(value.data) && !('content' in value)) return { type, data: value.data, form: 'data' }
  if ('content' in value || 'tool_calls' in value) return { type, data: value, form: 'dict' }
  return null
}

/** The wrapper the messages came in, for the serializer. */
export type Wrapper =
  | { readonly kind: 'array' }
  | { readonly kind: 'state'; readonly envelope: Obj }
  | { readonly kind: 'langsmith'; readonly envelope: Obj; readonly nested: boolean }

/** Find the message list: a bare array, LangGraph `{messages}`, or a LangSmith run. */
export function locateMessages(
  value: unknown,
): { list: readonly unknown[]; wrapper: Wrapper; output?: unknown } | null {
  if (Array.isArray(value)) {
    // LangSmith chat-model inputs are a list of lists.
    if (value.length === 1 && Array.isArray(value[0])) {
      return { list: value[0], wrapper: { kind: 'langsmith', envelope: {}, nested: true } }
    }
    return { list: value, wrapper: { kind: 'array' } }
  }
  if (!isObject(value)) return null
  if (isObject(value.inputs) && Array.isArray(value.inputs.messages)) {
    const inner = value.inputs.messages
    const nested = inner.length > 0 && Array.isArray(inner[0])
    const gens = isObject(value.outputs) ? arr(value.outputs.generations) : []
    const first = Array.isArray(gens[0]) ? gens[0][0] : gens[0]
    return {
      list: nested ? arr(inner[0]) : inner,
      wrapper: { kind: 'langsmith', envelope: value, nested },
      output: isObject(first) ? first.message : undefined,
    }
  }
  if (Array.isArray(value.messages))
    return { list: value.messages, wrapper: { kind: 'state', envelope: value } }
  return null
}

/** formats.md §12/§16: `type` ∈ {human, ai, …} message dicts, `{type, data}` or `lc:1` constructors. */
export function detect(input: SniffedInput): Detection | null {
  if (input.kind !== 'json') return null
  const found = locateMessages(input.value)
  if (!found || found.list.length === 0) return null
  const raws = found.list.map(rawMessage)
  const hits = raws.filter((r) => r !== null)
  if (hits.length === 0) return null
  const share = hits.length / found.list.length
  const forms = new Set(hits.map((h) => h.form))
  const types = new Set(hits.map((h) => h.type))
  const evidence = [
    `${hits.length}/${found.list.length} elements are LangChain messages (${[...forms].join(', ')})`,
    `message types: ${[...types].join(', ')}`,
  ]
  if (found.wrapper.kind !== 'array')
    evidence.push(
      `wrapped in ${found.wrapper.kind === 'state' ? '`{messages}`' : 'a LangSmith run'}`,
    )
  let confidence: number
  if (forms.has('lc') || forms.has('data')) confidence = 0.95
  else if (types.has('human') || types.has('ai')) confidence = 0.9
  else confidence = 0.5 // only system/tool dicts: could be something else carrying `type`
  if (share < 0.9) confidence = Math.min(confidence, share >= 0.5 ? 0.6 : 0.3)
  if (found.wrapper.kind === 'state') confidence -= 0.02
  return { format: 'langchain', confidence, evidence }
}

export function lcName(type: string): string {
  const names: Record<string, string> = {
    human: 'HumanMessage',
    ai: 'AIMessage',
    system: 'SystemMessage',
    tool: 'ToolMessage',
    function: 'FunctionMessage',
    chat: 'ChatMessage',
    remove: 'RemoveMessage',
  }
  return names[type] ?? 'ChatMessage'
}
