import type {
  ImagePart,
  Message,
  OpaquePart,
  Part,
  Role,
  TextPart,
  ToolResultPart,
} from '../../engine/model.ts'
import type { Detection, ParseResult, ParseWarning, SniffedInput } from '../types.ts'
import {
  arr,
  callFromRawArgs,
  fail,
  failAtInput,
  isObject,
  lineOfOffset,
  ok,
  parseError,
  str,
  warning,
} from '../util.ts'
import { actionParts, findTextAction, observationPart, type TextAction } from './text-actions.ts'

type Obj = Record<string, unknown>

/** Where the conversation lives: `history` (SWE-agent .traj) or `messages` (mini-swe-agent). */
function historyKey(value: Obj): 'history' | 'messages' | null {
  if (Array.isArray(value.history)) return 'history'
  if (Array.isArray(value.messages) && str(value.trajectory_format)?.startsWith('mini-swe-agent')) {
    return 'messages'
  }
  return null
}

/** formats.md §9 / §16 rule 4: `trajectory` + `history` arrays (plus `info`). */
export function detect(input: SniffedInput): Detection | null {
  if (input.kind !== 'json' || !isObject(input.value)) return null
  const v = input.value
  const evidence: string[] = []
  if (str(v.trajectory_format)?.startsWith('mini-swe-agent') && Array.isArray(v.messages)) {
    return {
      format: 'swe-agent',
      confidence: 0.9,
      evidence: [`trajectory_format: ${String(v.trajectory_format)}`, '`messages` array'],
    }
  }
  if (!Array.isArray(v.history)) return null
  evidence.push(`\`history\` array (${v.history.length} messages)`)
  const roles = v.history.filter((m) => isObject(m) && typeof m.role === 'string').length
  if (Array.isArray(v.trajectory))
    evidence.push(`\`trajectory\` array (${v.trajectory.length} steps)`)
  if (isObject(v.info)) evidence.push('`info` object')
  const typed = v.history.some((m) => isObject(m) && 'message_type' in m)
  evidence.push(
    typed
      ? 'history items have `message_type` (1.x)'
      : 'history items without `message_type` (0.x)',
  )
  let confidence = Array.isArray(v.trajectory) ? 0.95 : isObject(v.info) ? 0.7 : 0.4
  if (roles < v.history.length / 2) confidence = Math.min(confidence, 0.4)
  return { format: 'swe-agent', confidence, evidence }
}

/** Content of a history item: a string, or a list of text / image blocks (1.x with images). */
export function contentParts(content: unknown): (TextPart | ImagePart | OpaquePart)[] {
  if (typeof content === 'string') return content === '' ? [] : [{ kind: 'text', text: content }]
  const parts: (TextPart | ImagePart | OpaquePart)[] = []
  for (const block of arr(content)) {
    if (typeof block === 'string') parts.push({ kind: 'text', text: block })
    else if (isObject(block) && block.type === 'text') {
      parts.push({ kind: 'text', text: str(block.text) ?? '', meta: { block } })
    } else if (isObject(block) && block.type === 'image_url') {
      const url = isObject(block.image_url) ? str(block.image_url.url) : str(block.image_url)
      const m = url ? /^data:([^;,]*);base64,/.exec(url.slice(0, 200)) : null
      parts.push(
        m && url
          ? {
              kind: 'image',
              mediaType: m[1],
              data: url.slice(m[0].length),
              bytes: Math.floor(((url.length - m[0].length) * 3) / 4),
              meta: { block },
            }
          : { kind: 'image', url, bytes: 0, meta: { block } },
      )
    } else if (block !== undefined) {
      const raw = JSON.stringify(block)
      parts.push({
        kind: 'opaque',
        opaque: { label: 'unknown content block', bytes: raw.length },
        raw: block,
      })
    }
  }
  return parts
}

function locate(text: string, index: number, key: string): { line: number; offset: number } {
  // Cheap and approximate: the n-th `"role"` key of the history array.
  let at = text.indexOf(`"${key}"`)
  for (let i = 0; i < index && at >= 0; i++) at = text.indexOf('"role"', at + 1)
  return at < 0 ? { line: 0, offset: 0 } : { line: lineOfOffset(text, at), offset: at }
}

/** Parse a SWE-agent `.traj` (0.x text actions or 1.x function calling). Never throws. */
export function parse(input: SniffedInput): ParseResult {
  if (input.kind !== 'json' || !isObject(input.value)) {
    return failAtInput(input, 'expected a SWE-agent trajectory JSON object')
  }
  const value = input.value
  const key = historyKey(value)
  if (!key) {
    return fail(
      parseError(
        1,
        0,
        'expected a SWE-agent trajectory with a `history` array (or mini-swe-agent `messages`)',
      ),
    )
  }
  const warnings: ParseWarning[] = []
  const messages: Message[] = []
  const notes: string[] = []
  let sawAssistant = false
  let shared = 0
  let derived = 0
  // A derived call waits for the next item to answer it (text-action agents: text-actions.ts).
  let awaiting = false
  arr(value[key]).forEach((item, i) => {
    const answers = awaiting
    awaiting = false
    if (!isObject(item) || typeof item.role !== 'string') {
      const at = locate(input.text, i, 'history')
      warnings.push(
        warning(at.line, at.offset, `${key}[${i}]: expected an object with \`role\`, skipped`),
      )
      return
    }
    const role: Role =
      item.role === 'system' || item.role === 'assistant' || item.role === 'tool'
        ? item.role
        : 'user'
    const id = `m${messages.length}`
    const source: Obj = {
      item: stripped(item),
      contentForm: contentForm(item.content),
      ...(Array.isArray(item.tool_call_ids) ? { idsArray: true } : {}),
    }
    if (role === 'tool') {
      const ids: unknown[] = Array.isArray(item.tool_call_ids)
        ? item.tool_call_ids
        : 'tool_call_id' in item
          ? [item.tool_call_id]
          : []
      if (ids.length > 1) shared++
      const content = contentParts(item.content)
      const parts: ToolResultPart[] = (ids.length === 0 ? [null] : ids).map((callId, k) => ({
        kind: 'tool_result',
        callId: typeof callId === 'string' ? callId : null,
        content,
        isError: false,
        ...(k > 0 ? { meta: { sharedContent: true } } : {}),
      }))
      messages.push({ id, role, parts, source })
      return
    }
    if (answers && isObservation(item)) {
      const result = observationPart(contentParts(item.content))
      messages.push({ id, role: 'tool', parts: [result], source })
      return
    }
    const textAction = role === 'assistant' ? textActionOf(item, key) : null
    if (textAction) {
      derived++
      awaiting = true
      sawAssistant = true
      messages.push({ id, role, parts: actionParts(textAction), source })
      return
    }
    const parts: Part[] = contentParts(item.content)
    if (role === 'assistant') {
      sawAssistant = true
      arr(item.tool_calls).forEach((call, k) => {
        if (!isObject(call)) return
        const fn = isObject(call.function) ? call.function : {}
        const raw =
          typeof fn.arguments === 'string' ? fn.arguments : JSON.stringify(fn.arguments ?? {})
        parts.push(
          callFromRawArgs(
            {
              callId: typeof call.id === 'string' ? call.id : null,
              name: str(fn.name) ?? '',
              callType: str(call.type),
              meta: { index: k },
            },
            raw,
          ),
        )
      })
    }
    // Demonstrations and observations fed back as user messages are not human turns.
    const injected =
      role === 'user' &&
      (item.is_demo === true || item.message_type === 'demonstration' || sawAssistant)
    messages.push({ id, role, parts, ...(injected ? { injected: true } : {}), source })
  })
  if (messages.length === 0) {
    return fail(
      parseError(
        1,
        0,
        `\`${key}\` holds no messages (expected objects with \`role\` and \`content\`)`,
      ),
      warnings,
    )
  }
  if (derived > 0) {
    notes.push(
      `${derived} tool call(s) derived from text actions (fenced commands; observations read as their results)`,
    )
  }
  if (shared > 0) {
    notes.push(
      `${shared} observation(s) answer several tool_call_ids: one tool_result per id, same content repeated`,
    )
  }
  const info = isObject(value.info) ? value.info : {}
  if (typeof info.exit_status === 'string') notes.push(`exit_status: ${info.exit_status}`)
  if (isObject(info.model_stats)) notes.push(`model_stats: ${JSON.stringify(info.model_stats)}`)
  if (Array.isArray(value.trajectory)) notes.push(`trajectory: ${value.trajectory.length} steps`)
  return ok(
    {
      meta: {
        format: 'swe-agent',
        model: modelName(value),
        wrapper: key === 'messages' ? 'mini-swe-agent trajectory' : 'SWE-agent .traj',
        notes,
      },
      system: [],
      tools: [],
      messages,
      markers: [],
      source: { key, top: withoutKey(value, key) },
    },
    warnings,
  )
}

/**
 * The fenced command of a text-action reply: a string `content`, no recorded `tool_calls`, and
 * SWE-agent's `action` field (history) or mini-swe-agent's single ```bash block (messages).
 */
function textActionOf(item: Obj, key: 'history' | 'messages'): TextAction | null {
  if (typeof item.content !== 'string') return null
  if (item.tool_calls !== undefined && item.tool_calls !== null) {
    if (!Array.isArray(item.tool_calls) || item.tool_calls.length > 0) return null
  }
  if (key === 'history') {
    return typeof item.action === 'string' ? findTextAction(item.content, item.action) : null
  }
  return findTextAction(item.content, undefined)
}

/** A plain user message (not a demonstration, not another kind of typed message). */
function isObservation(item: Obj): boolean {
  return (
    item.role === 'user' &&
    item.is_demo !== true &&
    item.is_demo !== 'True' &&
    (item.message_type === undefined || item.message_type === 'observation') &&
    (typeof item.content === 'string' || Array.isArray(item.content))
  )
}

function modelName(value: Obj): string | undefined {
  const rc = isObject(value.replay_config) ? value.replay_config : undefined
  const agent = rc && isObject(rc.agent) ? rc.agent : undefined
  const model = agent && isObject(agent.model) ? agent.model : undefined
  return model ? str(model.name) : undefined
}

/**
 * The history item without the fields the canonical parts carry (content, tool_calls,
 * tool_call_ids are rebuilt from parts); `contentForm` remembers string vs block content.
 */
function stripped(item: Obj): Obj {
  const out: Obj = {}
  for (const [k, v] of Object.entries(item)) {
    if (k !== 'content' && k !== 'tool_calls' && k !== 'tool_call_ids') out[k] = v
  }
  return out
}

function contentForm(content: unknown): 'string' | 'blocks' | 'none' {
  if (content === undefined) return 'none'
  return Array.isArray(content) ? 'blocks' : 'string'
}

function withoutKey(obj: Obj, key: string): Obj {
  const out: Obj = {}
  for (const [k, v] of Object.entries(obj)) if (k !== key) out[k] = v
  return out
}
