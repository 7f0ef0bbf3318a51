import type { Message, Part, ReportedUsage, Role, ToolCallPart } from '../../engine/model.ts'
import type { ParseResult, ParseWarning, SniffedInput } from '../types.ts'
import {
  arr,
  callFromObjectArgs,
  callFromRawArgs,
  fail,
  failAtInput,
  IdAllocator,
  isObject,
  num,
  ok,
  parseError,
  str,
  warning,
} from '../util.ts'
import { blockContent, blockPart, without } from './blocks.ts'
import { locateMessages, type RawMessage, rawMessage } from './shape.ts'
import { pushAll } from '../../engine/arrays.ts'

/** Fields rebuilt from canonical parts; everything else is kept verbatim for the serializer. */
const REBUILT = new Set(['content', 'tool_calls', 'invalid_tool_calls', 'tool_call_id'])

function usageOf(u: unknown): ReportedUsage | undefined {
  if (!isObject(u)) return undefined
  const input = num(u.input_tokens)
  const inDetails = isObject(u.input_token_details) ? u.input_token_details : {}
  const outDetails = isObject(u.output_token_details) ? u.output_token_details : {}
  return {
    // LangChain's input_tokens already sums every input kind (cache reads included).
    contextTokens: input,
    inputTokens: input,
    outputTokens: num(u.output_tokens),
    cacheReadTokens: num(inDetails.cache_read),
    cacheWriteTokens: num(inDetails.cache_creation),
    reasoningTokens: num(outDetails.reasoning),
    source: 'langchain usage_metadata',
  }
}

function roleOf(raw: RawMessage): Role {
  switch (raw.type) {
    case 'human':
      return 'user'
    case 'ai':
      return 'assistant'
    case 'system':
    case 'developer':
      return 'system'
    case 'tool':
    case 'function':
      return 'tool'
    default: {
      const r = str(raw.data.role)
      return r === 'assistant' || r === 'ai'
        ? 'assistant'
        : r === 'system'
          ? 'system'
          : r === 'tool'
            ? 'tool'
            : 'user'
    }
  }
}

/** Build the canonical parts of one message (tool calls deduplicated by id). */
function partsOf(raw: RawMessage, role: Role): Part[] {
  const d = raw.data
  const content = d.content
  if (role === 'tool') {
    const callId = typeof d.tool_call_id === 'string' ? d.tool_call_id : null
    return [
      {
        kind: 'tool_result',
        callId,
        ...(typeof d.name === 'string' ? { name: d.name } : {}),
        content: blockContent(content),
        isError: d.status === 'error',
      },
    ]
  }
  const parts: Part[] = []
  const kwargs = isObject(d.additional_kwargs) ? d.additional_kwargs : {}
  const rc = str(kwargs.reasoning_content)
  if (rc) parts.push({ kind: 'reasoning', text: rc, meta: { origin: 'additional_kwargs' } })
  if (typeof content === 'string') {
    if (content !== '') parts.push({ kind: 'text', text: content })
  } else pushAll(parts, arr(content).map(blockPart))
  const seen = new Map<string, number>()
  parts.forEach((p, i) => {
    if (p.kind === 'tool_call' && p.callId) seen.set(p.callId, i)
  })
  for (const call of arr(d.tool_calls)) {
    if (!isObject(call)) continue
    const id = typeof call.id === 'string' ? call.id : null
    const at = id ? seen.get(id) : undefined
    if (at !== undefined) {
      // Same call as a content block (ChatAnthropic): count once, remember both places.
      const p = parts[at] as ToolCallPart
      parts[at] = { ...p, meta: { ...p.meta, alsoInToolCalls: without(call, ['args']) } }
      continue
    }
    parts.push(
      callFromObjectArgs(
        {
          callId: id,
          name: str(call.name) ?? '',
          meta: { origin: 'tool_calls', entry: without(call, ['args']) },
        },
        call.args,
      ),
    )
  }
  for (const call of arr(d.invalid_tool_calls)) {
    if (!isObject(call)) continue
    const raw = typeof call.args === 'string' ? call.args : JSON.stringify(call.args ?? null)
    parts.push(
      callFromRawArgs(
        {
          callId: typeof call.id === 'string' ? call.id : null,
          name: str(call.name) ?? '',
          meta: { origin: 'invalid', entry: without(call, ['args']) },
        },
        raw,
      ),
    )
  }
  // Pre-`tool_calls` LangChain: the OpenAI wire calls are the only record. Otherwise they only
  // mirror `tool_calls` and stay in the source (never counted twice).
  if (!parts.some((p) => p.kind === 'tool_call') && !('tool_calls' in d)) {
    for (const call of arr(kwargs.tool_calls)) {
      if (!isObject(call) || !isObject(call.function)) continue
      const fn = call.function
      parts.push(
        callFromRawArgs(
          {
            callId: typeof call.id === 'string' ? call.id : null,
            name: str(fn.name) ?? '',
            meta: { origin: 'additional_kwargs' },
          },
          typeof fn.arguments === 'string' ? fn.arguments : JSON.stringify(fn.arguments ?? {}),
        ),
      )
    }
  }
  return parts
}

/** Parse LangChain message dicts / `messages_to_dict` / `lc:1` objects. Never throws. */
export function parse(input: SniffedInput): ParseResult {
  if (input.kind !== 'json') {
    return failAtInput(input, 'expected JSON LangChain messages')
  }
  const found = locateMessages(input.value)
  if (!found)
    return fail(
      parseError(
        1,
        0,
        'expected an array of LangChain messages, `{messages: […]}` or a LangSmith run',
      ),
    )
  const warnings: ParseWarning[] = []
  const ids = new IdAllocator()
  const messages: Message[] = []
  let model: string | undefined
  const items: { value: unknown; fromOutput: boolean }[] = found.list.map((value) => ({
    value,
    fromOutput: false,
  }))
  if (found.output !== undefined) items.push({ value: found.output, fromOutput: true })
  items.forEach(({ value, fromOutput }, i) => {
    const raw = rawMessage(value)
    if (!raw) {
      warnings.push(
        warning(
          0,
          0,
          `messages[${i}]: expected a LangChain message (\`type\` human|ai|system|tool, \`{type, data}\` or \`lc:1\`), skipped`,
        ),
      )
      return
    }
    const role = roleOf(raw)
    const d = raw.data
    const meta = isObject(d.response_metadata) ? d.response_metadata : {}
    const modelName = str(meta.model_name) ?? str(meta.model)
    if (role === 'assistant') model ??= modelName
    const usage = role === 'assistant' ? usageOf(d.usage_metadata) : undefined
    messages.push({
      id: ids.next(str(d.id), messages.length),
      role,
      parts: partsOf(raw, role),
      ...(modelName && role === 'assistant' ? { model: modelName } : {}),
      ...(usage ? { usage } : {}),
      source: {
        form: raw.form,
        type: raw.type,
        ...(raw.lcId ? { lcId: raw.lcId } : {}),
        ...(fromOutput ? { fromOutput: true } : {}),
        fields: without(d, [...REBUILT]),
        contentString: typeof d.content === 'string',
        hadToolCalls: 'tool_calls' in d,
        hadCallId: 'tool_call_id' in d,
        hadInvalid: 'invalid_tool_calls' in d,
        ...(isObject(value) && raw.form === 'dict'
          ? {}
          : { outer: isObject(value) ? without(value, ['data', 'kwargs']) : {} }),
      },
    })
  })
  if (messages.length === 0)
    return fail(
      parseError(1, 0, 'no LangChain messages found (expected objects with `type` and `content`)'),
      warnings,
    )
  return ok(
    {
      meta: {
        format: 'langchain',
        model,
        wrapper:
          found.wrapper.kind === 'array'
            ? 'LangChain messages'
            : found.wrapper.kind === 'state'
              ? 'LangGraph state'
              : 'LangSmith run',
      },
      system: [],
      tools: [],
      messages,
      markers: [],
      source: { wrapper: found.wrapper },
    },
    warnings,
  )
}
