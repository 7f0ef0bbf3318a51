import type { Message, Part, ResultContent, ToolCallPart, ToolResultPart } from '../engine/model.ts'

/**
 * One hidden class per model object, whichever importer built it. V8 gives an object its "map"
 * from the properties it has, their order and how it was built (a literal, a spread, properties
 * added later, accessors); the engine's hot functions (grouping, planning, pricing) are compiled
 * for the maps they have seen, and each new map is a deoptimisation and a recompile — in every
 * worker isolate of a fleet run. Before these factories a fleet of Claude Code and OpenAI Chat
 * files gave messages three maps and tool calls two (one with lazy accessors) and tool results two
 * (a literal, and the same keys built with a spread). So every importer builds these objects here:
 * every property present, in the interface's order, a missing one as `undefined`. JSON is
 * unchanged — `JSON.stringify` drops an `undefined` property as it drops an absent one — and no
 * code in the project tells the two apart (`in` / `Object.keys` are not used on model objects).
 */

/** A message's fields; the optional ones default to `undefined` (present, so the map is shared). */
export interface MessageFields {
  readonly id: string
  readonly role: Message['role']
  readonly parts: readonly Part[]
  readonly injected?: boolean | undefined
  readonly sidechain?: string | undefined
  readonly model?: string | undefined
  readonly timestamp?: string | undefined
  readonly usage?: Message['usage']
  readonly line?: number | undefined
  readonly summaryOf?: Message['summaryOf']
  readonly source?: Message['source']
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] }

/**
 * A message with every property of {@link Message} present, in its order. Returned mutable so an
 * importer can fill a field later (Claude Code sets `usage` from a response's last line) without
 * adding a property, which would change the map again.
 */
export function newMessage(f: MessageFields): Mutable<Message> {
  return {
    id: f.id,
    role: f.role,
    parts: f.parts,
    injected: f.injected,
    sidechain: f.sidechain,
    model: f.model,
    timestamp: f.timestamp,
    usage: f.usage,
    line: f.line,
    summaryOf: f.summaryOf,
    source: f.source,
  }
}

export type ToolCallFields = Omit<ToolCallPart, 'kind'>

/**
 * A tool call with every property present. `args`/`argsError` are plain data: the argument
 * string is parsed by the caller (see `callFromRawArgs`), not behind a getter, because accessor
 * properties give the part a map of their own and the engine reads `args` of every call anyway
 * (the risk index, payload trimming), so deferring the parse saved nothing in a compaction run.
 */
export function newToolCall(f: ToolCallFields): ToolCallPart {
  return {
    kind: 'tool_call',
    callId: f.callId,
    name: f.name,
    argsRaw: f.argsRaw,
    args: f.args,
    argsError: f.argsError,
    serverSide: f.serverSide,
    callType: f.callType,
    derivedFrom: f.derivedFrom,
    meta: f.meta,
  }
}

export interface ToolResultFields {
  readonly callId: string | null
  readonly name?: string | undefined
  readonly content: readonly ResultContent[]
  readonly isError: boolean
  readonly derivedFrom?: ToolResultPart['derivedFrom']
  readonly meta?: ToolResultPart['meta']
}

/** A tool result with every property present, in the interface's order. */
export function newToolResult(f: ToolResultFields): ToolResultPart {
  return {
    kind: 'tool_result',
    callId: f.callId,
    name: f.name,
    content: f.content,
    isError: f.isError,
    derivedFrom: f.derivedFrom,
    meta: f.meta,
  }
}
