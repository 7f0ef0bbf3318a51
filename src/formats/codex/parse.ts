import type { Message, Part, ReportedUsage, Role, UpstreamMarker } from '../../engine/model.ts'
import type { ImportOptions, JsonlLine, ParseResult, ParseWarning, SniffedInput } from '../types.ts'
import {
  arr,
  fail,
  failAtInput,
  IdAllocator,
  isObject,
  linesOf,
  num,
  ok,
  parseError,
  str,
  warning,
} from '../util.ts'
import { MODEL_OUTPUT_ITEMS, TOOL_OUTPUT_ITEMS, itemToParts } from './items.ts'
import { type ExtraLine, LAB_ID, type LineRecord } from './lines.ts'
import { pushAll } from '../../engine/arrays.ts'
import { newMessage } from '../shapes.ts'

type Mutable<T> = { -readonly [K in keyof T]: T[K] }
type Draft = Mutable<Omit<Message, 'parts' | 'source'>> & {
  parts: Part[]
  source: { lines: LineRecord[]; fromEvent?: true }
}

/** Context Codex injects as user/developer messages: not human prompts. */
const INJECTED =
  /^\s*(<(environment_context|user_instructions|permissions instructions|turn_aborted|user_shell_command|collaboration_mode|personality_spec|skill|subagent_notification|developer_instructions|INSTRUCTIONS)\b|# AGENTS\.md instructions)/

/**
 * Parse a Codex rollout in one linear pass. The model context is built from `response_item`
 * lines (+ `compacted`): consecutive model-output items form one assistant message (one model
 * call), tool outputs become `role:'tool'` messages. `event_msg` lines duplicate that content and
 * are only read for token counts; every non-message line is kept for the serializer.
 */
export function parseCodex(input: SniffedInput, _options?: ImportOptions): ParseResult {
  const warnings: ParseWarning[] = input.kind === 'jsonl' ? [...input.bad] : []
  const lines = linesOf(input)
  if (lines.length === 0) {
    return failAtInput(
      input,
      'expected Codex rollout JSON Lines ({timestamp, type, payload} per line), found none',
      warnings,
    )
  }
  const ids = new IdAllocator()
  const messages: Draft[] = []
  const extras: ExtraLine[] = []
  const markers: UpstreamMarker[] = []
  const counts = new Map<string, number>()
  let current: Draft | undefined
  let lastAssistant: Draft | undefined
  let userSinceOutput = false
  let pending: { l: JsonlLine; v: Record<string, unknown>; text: string } | undefined
  let sessionId: string | undefined
  let cwd: string | undefined
  let model: string | undefined
  let contextWindow: number | undefined
  let instructions: string | undefined
  let replaced = 0
  let fromEvents = 0

  const keep = (l: JsonlLine, what: string) => {
    extras.push({ line: l.line, value: l.value })
    counts.set(what, (counts.get(what) ?? 0) + 1)
  }
  const add = (
    l: JsonlLine,
    v: Record<string, unknown>,
    role: Role,
    parts: Part[],
    id?: string,
  ): Draft => {
    // Every field at once (shapes.ts): one hidden class for all messages of every importer.
    const draft = newMessage({
      // Ids are positional unless the serializer had to pin one (after edits), see serialize.ts.
      id: ids.next(str(v[LAB_ID]) ?? id, messages.length),
      role,
      parts,
      timestamp: str(v.timestamp) || undefined,
      line: l.line,
      source: { lines: [{ line: l.line, envelope: v, parts: parts.length }] },
    }) as Draft
    messages.push(draft)
    return draft
  }
  // The human prompt exists only as an event when the response_item was not recorded
  // (trimmed files, some Desktop builds): then, and only then, the event becomes the message.
  const flushPending = () => {
    if (!pending) return
    current = undefined
    const draft = add(pending.l, pending.v, 'user', [{ kind: 'text', text: pending.text }])
    draft.source.fromEvent = true
    fromEvents++
    pending = undefined
    userSinceOutput = true
  }
  const output = (
    l: JsonlLine,
    v: Record<string, unknown>,
    item: Record<string, unknown>,
    parts: Part[],
  ) => {
    flushPending()
    userSinceOutput = false
    if (!current) {
      current = add(l, v, 'assistant', parts, str(item.id))
      if (model) current.model = model
      lastAssistant = current
      return
    }
    pushAll(current.parts, parts)
    current.source.lines.push({ line: l.line, envelope: v, parts: parts.length })
  }

  for (const l of lines) {
    const v = l.value
    if (!isObject(v) || typeof v.type !== 'string') {
      warnings.push(
        warning(
          l.line,
          l.offset,
          'expected an object with a string `type` and a `payload`; kept as is',
        ),
      )
      keep(l, '(not an object)')
      continue
    }
    const payload = isObject(v.payload) ? v.payload : undefined
    switch (v.type) {
      case 'session_meta':
        if (payload) {
          sessionId ??= str(payload.id)
          cwd ??= str(payload.cwd)
          model ??= str(payload.model)
          const base = isObject(payload.base_instructions)
            ? str(payload.base_instructions.text)
            : undefined
          instructions ??= base ?? str(payload.instructions)
        }
        keep(l, 'session_meta')
        continue
      case 'turn_context':
        if (payload) model = str(payload.model) ?? model
        keep(l, 'turn_context')
        continue
      case 'compacted': {
        current = undefined
        flushPending()
        const history = payload ? arr(payload.replacement_history).length : 0
        replaced += history
        const message = payload ? str(payload.message) : undefined
        markers.push({
          kind: 'upstream_compaction',
          beforeIndex: messages.length,
          origin: 'codex-compacted',
          ...(message ? { summary: message } : {}),
          line: l.line,
          raw: payload,
        })
        keep(l, 'compacted')
        continue
      }
      case 'event_msg': {
        const type = payload ? str(payload.type) : undefined
        if (type === 'token_count' && payload && isObject(payload.info)) {
          contextWindow = num(payload.info.model_context_window) ?? contextWindow
          const usage = usageOf(payload.info.last_token_usage)
          if (usage && lastAssistant) lastAssistant.usage = usage
        } else if (type === 'task_started' && payload) {
          contextWindow = num(payload.model_context_window) ?? contextWindow
        } else if (type === 'user_message' && payload && !userSinceOutput) {
          if (pending) keep(pending.l, 'event_msg/user_message')
          pending = { l, v, text: str(payload.message) ?? '' }
          continue
        }
        keep(l, `event_msg/${type ?? '?'}`)
        continue
      }
      case 'response_item':
        break
      default:
        keep(l, v.type)
        continue
    }
    const item = payload
    const type = item ? str(item.type) : undefined
    const parts = item && type ? itemToParts(item) : null
    if (!item || !type || !parts) {
      if (!item || !type)
        warnings.push(
          warning(
            l.line,
            l.offset,
            'expected `payload` to be a Responses item with a `type`; kept as is',
          ),
        )
      keep(l, `response_item/${type ?? '?'}`)
      continue
    }
    if ((type === 'message' && item.role === 'assistant') || MODEL_OUTPUT_ITEMS.has(type)) {
      output(l, v, item, parts)
      continue
    }
    current = undefined
    if (TOOL_OUTPUT_ITEMS.has(type)) {
      add(l, v, 'tool', parts, str(item.id))
      continue
    }
    if (type === 'compaction' || type === 'compaction_summary') {
      flushPending()
      if (!markers.some((m) => m.beforeIndex === messages.length)) {
        markers.push({
          kind: 'upstream_compaction',
          beforeIndex: messages.length,
          origin: 'codex-compacted',
          trigger: 'compaction item',
          line: l.line,
          raw: item,
        })
      }
      add(l, v, 'user', parts, str(item.id)).injected = true
      continue
    }
    // An input message: user, developer (→ system) or system.
    const role: Role = item.role === 'user' ? 'user' : 'system'
    const injected = isInjected(parts)
    if (role === 'user' && !injected) {
      // A prompt event followed by its own response_item is a UI copy; followed by a different
      // user item (a summary a compacted export placed after it), it was the prompt itself.
      if (pending) {
        const text = parts.map((p) => (p.kind === 'text' ? p.text : '')).join('')
        if (text.trim() === pending.text.trim()) keep(pending.l, 'event_msg/user_message')
        else flushPending()
      }
      pending = undefined
      userSinceOutput = true
    }
    const draft = add(l, v, role, parts, str(item.id))
    if (injected) draft.injected = true
  }
  flushPending()

  if (messages.length === 0) {
    return fail(
      parseError(
        1,
        0,
        `expected Codex \`response_item\` lines with messages or tool calls, found none in ${lines.length} lines`,
      ),
      warnings,
    )
  }
  extras.sort((a, b) => a.line - b.line)
  const notes: string[] = []
  const kept = [...counts].map(([t, n]) => `${n} ${t}`).join(', ')
  if (kept) notes.push(`lines kept for round trip, not messages: ${kept}`)
  if (replaced > 0)
    notes.push(
      `compacted replacement_history: ${replaced} items not added (they repeat earlier messages)`,
    )
  if (fromEvents > 0)
    notes.push(
      `${fromEvents} user prompts taken from event_msg user_message (no response_item recorded)`,
    )

  return ok(
    {
      meta: {
        format: 'codex',
        ...(model ? { model } : {}),
        ...(cwd ? { cwd } : {}),
        ...(sessionId ? { sessionId } : {}),
        ...(contextWindow !== undefined ? { contextWindow } : {}),
        ...(notes.length ? { notes } : {}),
      },
      system: instructions ? [{ kind: 'text', text: instructions }] : [], // empty: a dropped prompt
      tools: [],
      messages,
      markers,
      source: { extras },
    },
    warnings,
  )
}

function isInjected(parts: readonly Part[]): boolean {
  const texts = parts.filter((p) => p.kind === 'text')
  return texts.length > 0 && texts.every((p) => INJECTED.test(p.text))
}

/** `last_token_usage` is the last request; `total_token_usage` is cumulative and not used. */
function usageOf(u: unknown): ReportedUsage | undefined {
  if (!isObject(u)) return undefined
  const input = num(u.input_tokens)
  if (input === undefined) return undefined
  const output = num(u.output_tokens)
  const cached = num(u.cached_input_tokens)
  const reasoning = num(u.reasoning_output_tokens)
  return {
    contextTokens: input,
    inputTokens: input,
    ...(output !== undefined ? { outputTokens: output } : {}),
    ...(cached !== undefined ? { cacheReadTokens: cached } : {}),
    ...(reasoning !== undefined ? { reasoningTokens: reasoning } : {}),
    source: 'codex token_count',
  }
}
