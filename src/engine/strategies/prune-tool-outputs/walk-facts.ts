/**
 * What the prune walk reads of the conversation's own messages and tool outputs, worked out once
 * per prepared conversation into flat typed arrays (issue 14). The walk runs at every model call
 * of a replay and goes through the recent turns each time; read off the message and part objects
 * (the raw source record of each assistant message among them), these facts were most of its
 * time, and the walk was the engine function whose time varied most between processes on this
 * shared machine (3 to 5 µs per call). A part the view replaced is not described here: the walk
 * reads it as before. */
import { partIndexOf, type PartIndex, type Prepared } from '../../compaction/prepared.ts'
import { firstAtLeast } from '../../arrays.ts'
import { startsTurn } from '../../groups.ts'
import type { Message, ToolResultPart } from '../../model.ts'
import { resultText } from '../tool-result-budget/falai.ts'

/** What opencode sends instead of a pruned output: cleared whatever the walk's placeholder. */
export const ALREADY_CLEARED = '[Old tool result content cleared]'

/** `summaryFrom`: the message is a compaction boundary by itself. */
const ALWAYS = -2
/** `summaryFrom`: the message is never one. */
const NEVER = -1

/** `result`: what a flat part is. */
export const NOT_RESULT = 0
export const RESULT = 1
export const ERROR_RESULT = 2

export interface WalkFacts {
  readonly index: PartIndex
  /** Per message: 1 when it starts a user turn (groups.ts `startsTurn`). */
  readonly turnStart: Uint8Array
  /**
   * Per message: {@link ALWAYS}, {@link NEVER}, or the index of the first `summary: true` opencode
   * envelope carrying its message id — a boundary once that envelope lies before the walk's limit.
   */
  readonly summaryFrom: Int32Array
  /**
   * Messages that become a boundary after they are visible (their envelope's summary flag is on a
   * later message): `at` ascending, the message's `summaryFrom`, and `message` beside it. A walk's
   * reading of such a message no longer holds once the limit passes `at`: the replay frontier
   * and the recent turns' reading check it.
   */
  readonly lateSummaries: { readonly at: Int32Array; readonly message: Int32Array }
  /** Per flat part: {@link NOT_RESULT}, {@link RESULT} or {@link ERROR_RESULT}. */
  readonly result: Uint8Array
  /** Per flat result: its tool name, its own or its call's ('' when neither is known). */
  readonly names: readonly string[]
  /** Per flat result: the part itself (what a candidate holds), without going through its message. */
  readonly parts: readonly (ToolResultPart | undefined)[]
  /** Per flat result: its text (falai's string content, the text the estimate is of). */
  readonly texts: readonly string[]
  /** Per flat result: its text's length (compared before the text itself). */
  readonly length: Int32Array
  /** Per flat result: opencode's `Token.estimate` of its text, round(chars / 4). */
  readonly estimate: Int32Array
  /** Per flat result: cleared before the walk by opencode (`time.compacted`) or its placeholder. */
  readonly cleared: Uint8Array
}

const made = new WeakMap<Prepared, WalkFacts>()

/** The facts of this prepared conversation, worked out on the first walk over it. */
export function walkFacts(prepared: Prepared, callNames: readonly string[]): WalkFacts {
  const hit = made.get(prepared)
  if (hit) return hit
  const messages = prepared.conversation.messages
  const index = partIndexOf(prepared)
  const parts = index.offset[messages.length] as number
  const from = summaryFrom(messages)
  const facts: WalkFacts = {
    index,
    turnStart: new Uint8Array(messages.length),
    summaryFrom: from,
    lateSummaries: lateSummaries(from),
    result: new Uint8Array(parts),
    parts: new Array<ToolResultPart | undefined>(parts),
    names: new Array<string>(parts).fill(''),
    texts: new Array<string>(parts).fill(''),
    length: new Int32Array(parts),
    estimate: new Int32Array(parts),
    cleared: new Uint8Array(parts),
  }
  const results = facts.parts as (ToolResultPart | undefined)[]
  const nameAt = facts.names as string[]
  const texts = facts.texts as string[]
  for (let m = 0; m < messages.length; m++) {
    const msg = messages[m] as Message
    if (startsTurn(msg)) facts.turnStart[m] = 1
    const first = index.offset[m] as number
    for (let i = 0; i < msg.parts.length; i++) {
      const part = msg.parts[i]
      if (part?.kind !== 'tool_result') continue
      const k = first + i
      const text = resultText(part)
      facts.result[k] = part.isError ? ERROR_RESULT : RESULT
      results[k] = part
      nameAt[k] = part.name || (callNames[k] ?? '')
      texts[k] = text
      facts.length[k] = text.length
      facts.estimate[k] = Math.max(0, Math.round(text.length / 4))
      if (part.meta?.compacted === true || text === ALREADY_CLEARED) facts.cleared[k] = 1
    }
  }
  made.set(prepared, facts)
  return facts
}

/**
 * Is some message a walk at limit `from` read (it lies below `from`) as no boundary one for a
 * walk at limit `to`?
 */
export function summaryArrivesIn(facts: WalkFacts, from: number, to: number): boolean {
  const { at, message } = facts.lateSummaries
  // From the first entry at or after `from`: `isSummaryAt` turns true once the limit passes it.
  for (let i = firstAtLeast(at, from); i < at.length && (at[i] as number) < to; i++)
    if ((message[i] as number) < from) return true
  return false
}

/** Is message `m` a compaction boundary for a walk whose view ends at `limit`? */
export function isSummaryAt(facts: WalkFacts, m: number, limit: number): boolean {
  const from = facts.summaryFrom[m] as number
  return from === ALWAYS || (from >= 0 && from < limit)
}

/** Is the original result at flat part `k` cleared for a walk with this placeholder? */
export function clearedAt(facts: WalkFacts, k: number, placeholder: string): boolean {
  return (
    facts.cleared[k] === 1 ||
    (facts.length[k] === placeholder.length && facts.texts[k] === placeholder)
  )
}

type Source = { info?: { summary?: unknown }; msgId?: unknown } | undefined

/**
 * Per message, when it is a summary: our own summary or an opencode `summary: true` assistant
 * message always; an assistant message whose opencode id an envelope marked `summary: true` from
 * that envelope on (later steps of the message carry only the id).
 */
function summaryFrom(messages: readonly Message[]): Int32Array {
  const firstEnvelope = new Map<string, number>()
  for (let m = 0; m < messages.length; m++) {
    const source = messages[m]?.source as Source
    if (source?.info?.summary === true && typeof source.msgId === 'string')
      if (!firstEnvelope.has(source.msgId)) firstEnvelope.set(source.msgId, m)
  }
  const out = new Int32Array(messages.length).fill(NEVER)
  for (let m = 0; m < messages.length; m++) {
    const msg = messages[m] as Message
    if (msg.summaryOf) out[m] = ALWAYS
    else if (msg.role === 'assistant') {
      const source = msg.source as Source
      if (source?.info?.summary === true) out[m] = ALWAYS
      else if (typeof source?.msgId === 'string') out[m] = firstEnvelope.get(source.msgId) ?? NEVER
    }
  }
  return out
}

/** See {@link WalkFacts.lateSummaries}. */
function lateSummaries(from: Int32Array): WalkFacts['lateSummaries'] {
  const late: number[] = []
  for (let m = 0; m < from.length; m++) if ((from[m] as number) > m) late.push(m)
  late.sort((a, b) => (from[a] as number) - (from[b] as number) || a - b)
  return {
    at: Int32Array.from(late, (m) => from[m] as number),
    message: Int32Array.from(late),
  }
}
