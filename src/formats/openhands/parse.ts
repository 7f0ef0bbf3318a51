import type {
  ImagePart,
  Message,
  Part,
  ToolDefinition,
  UpstreamMarker,
} from '../../engine/model.ts'
import type { ParseResult, ParseWarning, SniffedInput } from '../types.ts'
import {
  arr,
  base64DecodedBytes,
  callFromObjectArgs,
  callFromRawArgs,
  fail,
  failAtInput,
  IdAllocator,
  isObject,
  ok,
  parseDataUrl,
  parseError,
  str,
  warning,
} from '../util.ts'
import { type Draft, finish, locateEvent, usageOf } from './shared.ts'
import { isV1Event, parseV1 } from './v1.ts'
import { pushAll } from '../../engine/arrays.ts'

type Obj = Record<string, unknown>

/** Events that never reach the model: agent state, "no observation", environment chatter. */
const NOISE_ACTIONS = new Set(['change_agent_state', 'recall', 'null', 'pause', 'resume'])
const NOISE_OBSERVATIONS = new Set(['agent_state_changed', 'null'])

function imagesOf(urls: unknown): ImagePart[] {
  return arr(urls)
    .filter((u): u is string => typeof u === 'string')
    .map((url) => {
      const data = parseDataUrl(url)
      return data
        ? {
            kind: 'image',
            mediaType: data.mediaType,
            data: data.data,
            bytes: base64DecodedBytes(data.data),
          }
        : { kind: 'image', url, bytes: 0 }
    })
}

/** The model's own tool call (raw argument string) for this action, from `model_response`. */
function rawCall(
  response: Obj | undefined,
  callId: string | null,
): { name?: string; args?: string } {
  const choice = response ? arr(response.choices)[0] : undefined
  const message = isObject(choice) && isObject(choice.message) ? choice.message : undefined
  for (const call of arr(message?.tool_calls)) {
    if (!isObject(call) || call.id !== callId || !isObject(call.function)) continue
    return { name: str(call.function.name), args: str(call.function.arguments) }
  }
  return {}
}

function responseText(response: Obj | undefined): string | undefined {
  const choice = response ? arr(response.choices)[0] : undefined
  const message = isObject(choice) && isObject(choice.message) ? choice.message : undefined
  return message ? str(message.content) : undefined
}

/** Action args minus OpenHands bookkeeping: what the call carried when no raw string exists. */
function argsOf(args: Obj): Obj {
  const out: Obj = {}
  for (const [k, v] of Object.entries(args)) if (k !== 'thought') out[k] = v
  return out
}

/** Parse an OpenHands event stream (V0 array, or V1 `kind: *Event` objects). Never throws. */
export function parse(input: SniffedInput): ParseResult {
  if (input.kind !== 'json') {
    return failAtInput(input, 'expected a JSON array of OpenHands events')
  }
  const events = Array.isArray(input.value)
    ? input.value
    : isObject(input.value) && Array.isArray(input.value.events)
      ? input.value.events
      : null
  if (!events)
    return fail(
      parseError(
        1,
        0,
        'expected a JSON array of OpenHands events (objects with `action` or `observation`)',
      ),
    )
  if (events.some(isV1Event)) return parseV1(input.text, events)

  const warnings: ParseWarning[] = []
  const drafts: Draft[] = []
  const noise: { after: string | null; event: Obj }[] = []
  const markers: UpstreamMarker[] = []
  const tools: ToolDefinition[] = []
  const callsByAction = new Map<unknown, string | null>()
  const ids = new IdAllocator()
  let open: Draft | undefined // assistant message still collecting parallel calls
  let model: string | undefined

  const push = (d: Omit<Draft, 'id'>, e: Obj): Draft => {
    const draft: Draft = {
      ...d,
      id: ids.next(e.id === undefined ? undefined : String(e.id), drafts.length),
    }
    drafts.push(draft)
    return draft
  }
  const lastId = () => drafts[drafts.length - 1]?.id ?? null

  events.forEach((e, i) => {
    if (!isObject(e) || (!('action' in e) && !('observation' in e))) {
      const at = isObject(e) ? locateEvent(input.text, e.id) : { line: 0, offset: 0 }
      warnings.push(
        warning(
          at.line,
          at.offset,
          `events[${i}]: expected an event with \`action\` or \`observation\`, skipped`,
        ),
      )
      return
    }
    const timestamp = str(e.timestamp)
    const args = isObject(e.args) ? e.args : {}
    const tcm = isObject(e.tool_call_metadata) ? e.tool_call_metadata : undefined
    const response = tcm && isObject(tcm.model_response) ? tcm.model_response : undefined
    const action = str(e.action)
    if (action !== undefined) {
      if (action === 'system') {
        for (const t of arr(args.tools)) {
          const fn = isObject(t) && isObject(t.function) ? t.function : isObject(t) ? t : {}
          tools.push({
            name: str(fn.name) ?? '',
            description: str(fn.description),
            raw: JSON.stringify(t),
          })
        }
        push(
          {
            role: 'system',
            parts: [{ kind: 'text', text: str(args.content) ?? str(e.message) ?? '' }],
            timestamp,
            events: [e],
          },
          e,
        )
        open = undefined
        return
      }
      if (action === 'condensation') {
        markers.push({
          kind: 'upstream_compaction',
          beforeIndex: drafts.length,
          origin: 'openhands-condensation',
          summary: str(args.summary),
          line: locateEvent(input.text, e.id).line,
          raw: e,
        })
        noise.push({ after: lastId(), event: e })
        return
      }
      if (action === 'message' && !tcm) {
        const text = str(args.content) ?? str(e.message) ?? ''
        const parts: Part[] = text === '' ? [] : [{ kind: 'text', text }]
        pushAll(parts, imagesOf(args.image_urls))
        push({ role: e.source === 'user' ? 'user' : 'assistant', parts, timestamp, events: [e] }, e)
        open = undefined
        return
      }
      if (NOISE_ACTIONS.has(action) || (e.source !== 'agent' && !tcm)) {
        noise.push({ after: lastId(), event: e })
        return
      }
      // An agent action: a tool call. Actions of one model response form one message.
      const callId = tcm ? (typeof tcm.tool_call_id === 'string' ? tcm.tool_call_id : null) : null
      const name = (tcm ? str(tcm.function_name) : undefined) ?? action
      const raw = rawCall(response, callId)
      const call =
        raw.args !== undefined
          ? callFromRawArgs({ callId, name, meta: { action } }, raw.args)
          : callFromObjectArgs({ callId, name, meta: { action } }, argsOf(args))
      callsByAction.set(e.id, callId)
      const responseId = response ? str(response.id) : undefined
      if (open && responseId !== undefined && open.responseId === responseId) {
        open.parts.push(call)
        open.events.push(e)
        return
      }
      const text = responseText(response) ?? str(args.thought) ?? ''
      const modelName = response ? str(response.model) : undefined
      model ??= modelName
      const usage = usageOf(response?.usage)
      open = push(
        {
          role: 'assistant',
          parts: [...(text !== '' ? [{ kind: 'text' as const, text }] : []), call],
          timestamp,
          events: [e],
          ...(responseId !== undefined ? { responseId } : {}),
          ...(modelName ? { model: modelName } : {}),
          ...(usage ? { usage } : {}),
        },
        e,
      )
      return
    }
    const observation = str(e.observation) ?? ''
    if (NOISE_OBSERVATIONS.has(observation)) {
      noise.push({ after: lastId(), event: e })
      return
    }
    const content = typeof e.content === 'string' ? e.content : JSON.stringify(e.content ?? '')
    const answers = tcm !== undefined || callsByAction.has(e.cause)
    if (answers) {
      const callId =
        tcm && typeof tcm.tool_call_id === 'string'
          ? tcm.tool_call_id
          : (callsByAction.get(e.cause) ?? null)
      push(
        {
          role: 'tool',
          parts: [
            {
              kind: 'tool_result',
              callId,
              ...(tcm && typeof tcm.function_name === 'string' ? { name: tcm.function_name } : {}),
              content: [{ kind: 'text', text: content }],
              isError: observation === 'error',
            },
          ],
          timestamp,
          events: [e],
        },
        e,
      )
      return
    }
    if (content.trim() === '') {
      noise.push({ after: lastId(), event: e })
      return
    }
    // Errors / recalled context without a call: OpenHands feeds them back as user messages.
    push(
      {
        role: 'user',
        parts: [{ kind: 'text', text: content }],
        injected: true,
        timestamp,
        events: [e],
      },
      e,
    )
    open = undefined
  })
  if (drafts.length === 0) {
    return fail(
      parseError(
        1,
        0,
        `no conversation events among ${events.length} (expected message/tool actions and observations)`,
      ),
      warnings,
    )
  }
  const messages: Message[] = drafts.map(finish)
  const noiseCount = noise.length
  return ok(
    {
      meta: {
        format: 'openhands',
        model,
        wrapper: 'OpenHands V0 event stream',
        notes: [
          `${events.length} events, ${noiseCount} kept as non-model events (agent state, empty observations)`,
        ],
      },
      system: [],
      tools,
      messages,
      markers,
      source: { version: 0, noise, wrapped: !Array.isArray(input.value) },
    },
    warnings,
  )
}
