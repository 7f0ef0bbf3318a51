import type { Conversation, Message, ToolCallPart } from '../../engine/model.ts'
import { arr, isObject } from '../util.ts'
import { serializeV1Message } from './v1.ts'
import { pushAll } from '../../engine/arrays.ts'

type Obj = Record<string, unknown>

/** OpenHands action names for the common CodeAct tools (new calls only; sources keep theirs). */
const ACTION_FOR: Readonly<Record<string, string>> = {
  execute_bash: 'run',
  execute_ipython_cell: 'run_ipython',
  str_replace_editor: 'edit',
  browser: 'browse_interactive',
  think: 'think',
  finish: 'finish',
}

function textOf(m: Message): string {
  return m.parts.map((p) => (p.kind === 'text' ? p.text : '')).join('')
}

function storedEvents(m: Message): Obj[] {
  return (Array.isArray(m.source?.events) ? m.source.events : []).filter(isObject)
}

/** Numeric event ids for events the source did not have. */
class EventIds {
  private next = 0
  constructor(messages: readonly Message[]) {
    for (const m of messages)
      for (const e of storedEvents(m))
        if (typeof e.id === 'number') this.next = Math.max(this.next, e.id + 1)
  }
  take(preferred: string): number | string {
    const n = Number(preferred)
    return Number.isInteger(n) && preferred !== '' ? n : this.next++
  }
  fresh(): number {
    return this.next++
  }
  /** Event id of the action that made each call, so new observations can point `cause` at it. */
  readonly actions = new Map<string | null, unknown>()
}

/** The model_response the actions of one assistant message share, with the canonical calls. */
function modelResponse(m: Message, base: Obj | undefined, calls: readonly ToolCallPart[]): Obj {
  const choices = base ? arr(base.choices) : []
  const choice = isObject(choices[0]) ? choices[0] : {}
  const message = isObject(choice.message) ? choice.message : { role: 'assistant' }
  const original = arr(message.tool_calls).filter(isObject)
  const toolCalls = calls.map((c, k) => {
    const o = original.find((t) => t.id === c.callId) ?? { index: k, type: 'function' }
    const fn = isObject(o.function) ? o.function : {}
    return { ...o, function: { ...fn, arguments: c.argsRaw, name: c.name }, id: c.callId }
  })
  const text = textOf(m)
  return {
    ...(base ?? { id: `resp_${m.id}`, object: 'chat.completion' }),
    choices: [
      {
        ...choice,
        message: { ...message, content: text === '' ? null : text, tool_calls: toolCalls },
      },
      ...choices.slice(1),
    ],
  }
}

function v0Events(m: Message, ids: EventIds): Obj[] {
  const stored = storedEvents(m)
  const text = textOf(m)
  if (m.role === 'assistant') {
    const calls = m.parts.filter((p) => p.kind === 'tool_call')
    if (calls.length === 0) {
      const base = stored[0] ?? { id: ids.take(m.id), source: 'agent', action: 'message' }
      const args = isObject(base.args) ? base.args : {}
      return [{ ...base, message: text, args: { ...args, content: text } }]
    }
    const tcm0 = stored.map((e) => e.tool_call_metadata).find(isObject)
    const response = modelResponse(
      m,
      isObject(tcm0?.model_response) ? tcm0.model_response : undefined,
      calls,
    )
    return calls.map((c, k) => {
      const event = eventFor(c, k)
      ids.actions.set(c.callId, event.id)
      return event
    })
    function eventFor(c: ToolCallPart, k: number): Obj {
      const base = stored.find(
        (e) => isObject(e.tool_call_metadata) && e.tool_call_metadata.tool_call_id === c.callId,
      ) ??
        stored[k] ?? {
          id: k === 0 ? ids.take(m.id) : ids.fresh(),
          source: 'agent',
          action: ACTION_FOR[c.name] ?? c.name,
          args: c.args ?? {},
        }
      const tcm = isObject(base.tool_call_metadata) ? base.tool_call_metadata : {}
      return {
        ...base,
        tool_call_metadata: {
          ...tcm,
          function_name: c.name,
          tool_call_id: c.callId,
          model_response: response,
          total_calls_in_response: calls.length,
        },
      }
    }
  }
  if (m.role === 'tool') {
    return m.parts
      .filter((p) => p.kind === 'tool_result')
      .map((r, k) => {
        const base = stored[k] ?? {
          id: k === 0 ? ids.take(m.id) : ids.fresh(),
          source: 'agent',
          observation: 'run',
          cause: ids.actions.get(r.callId),
          extras: {},
        }
        const body = r.content.map((c) => (c.kind === 'text' ? c.text : '')).join('')
        const observation = r.isError
          ? 'error'
          : base.observation === 'error'
            ? 'run'
            : base.observation
        const tcm = isObject(base.tool_call_metadata) ? base.tool_call_metadata : undefined
        return {
          ...base,
          observation,
          content: body,
          ...(tcm || r.callId !== null
            ? {
                tool_call_metadata: {
                  ...(tcm ?? { function_name: r.name ?? '' }),
                  tool_call_id: r.callId,
                },
              }
            : {}),
        }
      })
  }
  const base = stored[0]
  if (base && 'observation' in base) return [{ ...base, content: text }]
  const images = m.parts.flatMap((p) =>
    p.kind === 'image'
      ? [p.data !== undefined ? `data:${p.mediaType ?? ''};base64,${p.data}` : (p.url ?? '')]
      : [],
  )
  const event: Obj = base ?? {
    id: ids.take(m.id),
    source: m.role === 'system' ? 'agent' : 'user',
    action: m.role === 'system' ? 'system' : 'message',
  }
  const args = isObject(event.args) ? event.args : {}
  return [
    {
      ...event,
      message: m.role === 'system' ? event.message : text,
      args: {
        ...args,
        content: text,
        ...(images.length > 0 || 'image_urls' in args
          ? { image_urls: images.length > 0 ? images : args.image_urls }
          : {}),
      },
    },
  ]
}

/**
 * Write the event stream back: each message's stored events patched with the canonical content,
 * and the non-model events (agent state, empty observations, condensations) after the message
 * they followed. Events of removed messages are simply absent.
 */
export function serialize(conversation: Conversation): string {
  const source = conversation.source ?? {}
  const noise = (Array.isArray(source.noise) ? source.noise : []).filter(isObject)
  const v1 = source.version === 1
  const ids = new EventIds(conversation.messages)
  const out: unknown[] = []
  const placed = new Set<unknown>()
  const emitNoise = (after: string | null) => {
    for (const n of noise) {
      if (n.after === after && !placed.has(n)) {
        out.push(n.event)
        placed.add(n)
      }
    }
  }
  emitNoise(null)
  for (const m of conversation.messages) {
    pushAll(out, v1 ? serializeV1Message(m) : v0Events(m, ids))
    emitNoise(m.id)
  }
  for (const n of noise) if (!placed.has(n)) out.push(n.event)
  return JSON.stringify(source.wrapped === true ? { events: out } : out, null, 2)
}
