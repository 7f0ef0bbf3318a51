import { pushAll } from '../../engine/arrays.ts'
import type { Conversation, Part, ToolDefinition, UpstreamMarker } from '../../engine/model.ts'
import type { ParseResult, ParseWarning } from '../types.ts'
import {
  arr,
  callFromObjectArgs,
  callFromRawArgs,
  fail,
  IdAllocator,
  isObject,
  ok,
  parseError,
  str,
  warning,
} from '../util.ts'
import { type Draft, finish, locateEvent } from './shared.ts'

type Obj = Record<string, unknown>

const V1_KINDS = new Set(['Condensation', 'CondensationRequest', 'UserRejectObservation'])

/** OpenHands software-agent-sdk events carry a `kind` discriminator (`ActionEvent`…). */
export function isV1Event(value: unknown): boolean {
  return (
    isObject(value) &&
    typeof value.kind === 'string' &&
    (value.kind.endsWith('Event') || V1_KINDS.has(value.kind))
  )
}

/** TextContent / ImageContent lists → canonical parts. */
function contentParts(content: unknown): Part[] {
  if (typeof content === 'string') return content === '' ? [] : [{ kind: 'text', text: content }]
  const parts: Part[] = []
  for (const c of arr(content)) {
    if (!isObject(c)) continue
    if (typeof c.text === 'string') parts.push({ kind: 'text', text: c.text })
    for (const url of arr(c.image_urls))
      if (typeof url === 'string') parts.push({ kind: 'image', url, bytes: 0 })
  }
  return parts
}

function textOf(parts: readonly Part[]): string {
  return parts.map((p) => (p.kind === 'text' ? p.text : '')).join('')
}

/**
 * V1 (software-agent-sdk) events: SystemPromptEvent, MessageEvent, ActionEvent (grouped by
 * `llm_response_id`), ObservationEvent / AgentErrorEvent / UserRejectObservation (results),
 * Condensation (marker) and CondensationSummaryEvent (injected summary). Secondary-source shape.
 */
export function parseV1(text: string, events: readonly unknown[]): ParseResult {
  const warnings: ParseWarning[] = []
  const drafts: Draft[] = []
  const noise: { after: string | null; event: Obj }[] = []
  const markers: UpstreamMarker[] = []
  const tools: ToolDefinition[] = []
  const ids = new IdAllocator()
  let open: Draft | undefined
  const push = (d: Omit<Draft, 'id'>, e: Obj): Draft => {
    const draft: Draft = { ...d, id: ids.next(str(e.id), drafts.length) }
    drafts.push(draft)
    return draft
  }
  const lastId = () => drafts[drafts.length - 1]?.id ?? null
  events.forEach((e, i) => {
    if (!isV1Event(e)) {
      const at = isObject(e) ? locateEvent(text, e.id) : { line: 0, offset: 0 }
      warnings.push(
        warning(at.line, at.offset, `events[${i}]: expected an event with \`kind\`, skipped`),
      )
      return
    }
    const ev = e as Obj
    const timestamp = str(ev.timestamp)
    switch (ev.kind) {
      case 'SystemPromptEvent': {
        for (const t of arr(ev.tools)) {
          const fn = isObject(t) && isObject(t.function) ? t.function : isObject(t) ? t : {}
          tools.push({
            name: str(fn.name) ?? '',
            description: str(fn.description),
            raw: JSON.stringify(t),
          })
        }
        const prompt = isObject(ev.system_prompt)
          ? str(ev.system_prompt.text)
          : str(ev.system_prompt)
        push(
          {
            role: 'system',
            parts: [{ kind: 'text', text: prompt ?? '' }],
            timestamp,
            events: [ev],
          },
          ev,
        )
        open = undefined
        return
      }
      case 'MessageEvent': {
        const msg = isObject(ev.llm_message) ? ev.llm_message : {}
        const role = msg.role === 'assistant' || msg.role === 'system' ? msg.role : 'user'
        push({ role, parts: contentParts(msg.content), timestamp, events: [ev] }, ev)
        open = undefined
        return
      }
      case 'ActionEvent': {
        const tc = isObject(ev.tool_call) ? ev.tool_call : {}
        const callId = str(ev.tool_call_id) ?? str(tc.id) ?? null
        const name = str(ev.tool_name) ?? str(tc.name) ?? ''
        const call =
          typeof tc.arguments === 'string'
            ? callFromRawArgs({ callId, name }, tc.arguments)
            : callFromObjectArgs({ callId, name }, ev.action)
        const responseId = str(ev.llm_response_id)
        if (open && responseId !== undefined && open.responseId === responseId) {
          open.parts.push(call)
          open.events.push(ev)
          return
        }
        const parts: Part[] = []
        const reasoning = str(ev.reasoning_content)
        if (reasoning) parts.push({ kind: 'reasoning', text: reasoning })
        for (const b of arr(ev.thinking_blocks)) {
          if (!isObject(b)) continue
          const sig = str(b.signature) ?? str(b.data)
          parts.push({
            kind: 'reasoning',
            text: str(b.thinking) ?? '',
            ...(b.type === 'redacted_thinking' ? { redacted: true } : {}),
            ...(sig ? { opaque: { label: 'thinking signature', bytes: sig.length } } : {}),
          })
        }
        pushAll(parts, contentParts(ev.thought))
        parts.push(call)
        open = push(
          {
            role: 'assistant',
            parts,
            timestamp,
            events: [ev],
            ...(responseId ? { responseId } : {}),
          },
          ev,
        )
        return
      }
      case 'ObservationEvent':
      case 'AgentErrorEvent':
      case 'UserRejectObservation': {
        const obs = isObject(ev.observation) ? ev.observation : undefined
        const body =
          ev.kind === 'AgentErrorEvent'
            ? [{ kind: 'text' as const, text: str(ev.error) ?? '' }]
            : ev.kind === 'UserRejectObservation'
              ? [{ kind: 'text' as const, text: str(ev.rejection_reason) ?? '' }]
              : contentParts(obs?.content)
        const content = body.filter((p) => p.kind === 'text' || p.kind === 'image')
        push(
          {
            role: 'tool',
            parts: [
              {
                kind: 'tool_result',
                callId: str(ev.tool_call_id) ?? null,
                ...(str(ev.tool_name) ? { name: str(ev.tool_name) } : {}),
                content,
                isError: ev.kind !== 'ObservationEvent' || obs?.is_error === true,
              },
            ],
            timestamp,
            events: [ev],
          },
          ev,
        )
        return
      }
      case 'CondensationSummaryEvent':
        push(
          {
            role: 'user',
            parts: [{ kind: 'text', text: str(ev.summary) ?? '' }],
            injected: true,
            timestamp,
            events: [ev],
          },
          ev,
        )
        return
      case 'Condensation':
        markers.push({
          kind: 'upstream_compaction',
          beforeIndex: drafts.length,
          origin: 'openhands-condensation',
          summary: str(ev.summary),
          raw: ev,
        })
        noise.push({ after: lastId(), event: ev })
        return
      default:
        noise.push({ after: lastId(), event: ev })
    }
  })
  if (drafts.length === 0)
    return fail(
      parseError(1, 0, 'no conversation events (expected MessageEvent / ActionEvent …)'),
      warnings,
    )
  return ok(
    {
      meta: {
        format: 'openhands',
        wrapper: 'OpenHands V1 (agent-sdk) events',
        notes: [`${events.length} events, ${noise.length} non-model`],
      },
      system: [],
      tools,
      messages: drafts.map(finish),
      markers,
      source: { version: 1, noise },
    },
    warnings,
  )
}

/** Write V1 events back: the stored events, patched with the canonical text/args/results. */
export function serializeV1Message(m: Conversation['messages'][number]): Obj[] {
  const stored = (Array.isArray(m.source?.events) ? m.source.events : []).filter(isObject)
  const calls = m.parts.filter((p) => p.kind === 'tool_call')
  const results = m.parts.filter((p) => p.kind === 'tool_result')
  const text = textOf(m.parts)
  if (m.role === 'assistant' && calls.length > 0) {
    return calls.map((c, k) => {
      const base = stored.find((e) => e.tool_call_id === c.callId) ??
        stored[k] ?? { kind: 'ActionEvent', id: k === 0 ? m.id : `${m.id}-${k}`, source: 'agent' }
      const tc = isObject(base.tool_call) ? base.tool_call : {}
      return {
        ...base,
        ...(k === 0 ? { thought: text === '' ? [] : [{ type: 'text', text }] } : {}),
        tool_name: c.name,
        tool_call_id: c.callId,
        tool_call: { ...tc, id: c.callId, name: c.name, arguments: c.argsRaw },
      }
    })
  }
  if (m.role === 'tool') {
    return results.map((r, k) => {
      const base = stored[k] ?? {
        kind: r.isError ? 'AgentErrorEvent' : 'ObservationEvent',
        id: k === 0 ? m.id : `${m.id}-${k}`,
        source: 'environment',
      }
      const body = r.content.map((c) => (c.kind === 'text' ? c.text : '')).join('')
      if (base.kind === 'AgentErrorEvent') return { ...base, tool_call_id: r.callId, error: body }
      if (base.kind === 'UserRejectObservation')
        return { ...base, tool_call_id: r.callId, rejection_reason: body }
      const obs = isObject(base.observation) ? base.observation : {}
      return {
        ...base,
        tool_call_id: r.callId,
        ...(r.name ? { tool_name: r.name } : {}),
        observation: {
          ...obs,
          content: [{ type: 'text', text: body }],
          ...(r.isError ? { is_error: true } : {}),
        },
      }
    })
  }
  const base = stored[0] ?? { id: m.id, source: m.role === 'user' ? 'user' : 'agent' }
  if (base.kind === 'SystemPromptEvent' || (!base.kind && m.role === 'system')) {
    const sp = isObject(base.system_prompt) ? base.system_prompt : { type: 'text' }
    return [{ kind: 'SystemPromptEvent', ...base, system_prompt: { ...sp, text } }]
  }
  if (base.kind === 'CondensationSummaryEvent') return [{ ...base, summary: text }]
  const msg = isObject(base.llm_message) ? base.llm_message : {}
  const content = m.parts.flatMap((p): Obj[] =>
    p.kind === 'text'
      ? [{ type: 'text', text: p.text }]
      : p.kind === 'image' && p.url
        ? [{ type: 'image', image_urls: [p.url] }]
        : [],
  )
  return [{ kind: 'MessageEvent', ...base, llm_message: { ...msg, role: m.role, content } }]
}
