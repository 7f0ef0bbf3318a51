import type { Conversation, Message, ToolCallPart, ToolResultPart } from './model.ts'
import { mapItems } from './arrays.ts'

/** Address of a part: message index + part index (stable for a given conversation). */
export interface PartRef {
  readonly message: number
  readonly part: number
}

export type CallStatus =
  /** Answered by at least one result. */
  | 'answered'
  /** No result anywhere: the agent was still waiting (or the history was cut). */
  | 'pending'
  /** Executed by the provider with no separate result record (Responses web_search). */
  | 'server'

export interface CallInfo extends PartRef {
  readonly callId: string | null
  readonly name: string
  readonly status: CallStatus
  /** Indexes into `Pairing.results`. */
  readonly results: readonly number[]
}

export type PairedBy = 'id' | 'position' | 'none'

export interface ResultInfo extends PartRef {
  readonly callId: string | null
  /** Index into `Pairing.calls`, or -1 for an orphan. */
  readonly call: number
  readonly pairedBy: PairedBy
  /** Why this pairing needs a second look (duplicate id, missing id, no call…). */
  readonly flag?: 'orphan' | 'missing-id' | 'duplicate-id' | 'extra-result'
}

export interface Pairing {
  readonly calls: readonly CallInfo[]
  readonly results: readonly ResultInfo[]
}

interface MutableCall {
  readonly ref: PartRef
  readonly part: ToolCallPart
  readonly results: number[]
}

const usableId = (id: string | null): id is string => typeof id === 'string' && id.length > 0

/**
 * Pair every tool result with the call it answers.
 *
 * Order of evidence: an id that matches exactly one unanswered earlier call; an id shared by
 * several calls (reused ids) → the nearest unanswered earlier one, flagged; no usable id → the
 * earliest unanswered call of the latest assistant message that still has unanswered calls,
 * preferring the same tool name (Gemini sends calls without ids and answers in order), flagged.
 * A result no call can claim is an orphan; it is kept and flagged, never dropped.
 *
 * Runs in O(parts) with per-id queues, so pathological transcripts stay linear.
 */
export function pairToolCalls(conversation: Pick<Conversation, 'messages'>): Pairing {
  const pairer = new Pairer()
  const messages: readonly Message[] = conversation.messages
  for (let m = 0; m < messages.length; m++) {
    const msg = messages[m]
    if (!msg) continue
    const parts = msg.parts
    let ownOpen: number[] | null = null
    for (let p = 0; p < parts.length; p++) {
      const part = parts[p]
      if (!part) continue
      if (part.kind === 'tool_call') {
        const index = pairer.calls.length
        pairer.calls.push({ ref: { message: m, part: p }, part, results: [] })
        if (usableId(part.callId)) {
          pushTo(pairer.openById, part.callId, index)
          pushTo(pairer.allById, part.callId, index)
        }
        if (!ownOpen) {
          ownOpen = []
          pairer.openByMessage.push({ message: m, calls: ownOpen })
        }
        ownOpen.push(index)
      } else if (part.kind === 'tool_result') {
        pairer.results.push(pairer.pairOne(part, { message: m, part: p }))
      }
    }
  }
  return {
    // mapItems, not calls.map: a packed array whichever tier runs this (see mapItems).
    calls: mapItems(pairer.calls, (c): CallInfo => ({
      message: c.ref.message,
      part: c.ref.part,
      callId: c.part.callId,
      name: c.part.name,
      results: c.results,
      status: c.results.length > 0 ? 'answered' : c.part.serverSide ? 'server' : 'pending',
    })),
    results: pairer.results,
  }
}

/**
 * The pairing's state and steps. A class rather than closures inside `pairToolCalls`: closures
 * made per call are new functions to V8, optimised again in later files (every import and every
 * round's prepare pairs a conversation); methods are optimised once per isolate.
 */
class Pairer {
  readonly calls: MutableCall[] = []
  readonly results: ResultInfo[] = []
  /** Unanswered calls per id, in order. */
  readonly openById = new Map<string, number[]>()
  /** Every call per id (to recognise an extra result for an answered call). */
  readonly allById = new Map<string, number[]>()
  /** Calls of each assistant message that are still unanswered, newest message last. */
  readonly openByMessage: { message: number; calls: number[] }[] = []

  pairOne(part: ToolResultPart, ref: PartRef): ResultInfo {
    const { calls, openById, allById } = this
    const resultIndex = this.results.length
    if (usableId(part.callId)) {
      const open = openById.get(part.callId)
      if (open && open.length > 0) {
        // Several open calls share the id: inside one message (duplicated ids) answer them in
        // order; across messages (ids reused turn after turn) the latest use is the one waiting.
        const first = calls[open[0] as number]?.ref.message
        const last = calls[open[open.length - 1] as number]?.ref.message
        const call = (first === last ? open.shift() : open.pop()) as number
        const duplicate = (allById.get(part.callId)?.length ?? 0) > 1
        this.answer(call, resultIndex)
        return resultInfo(ref, part.callId, call, 'id', duplicate ? 'duplicate-id' : undefined)
      }
      const all = allById.get(part.callId)
      if (all && all.length > 0) {
        // A second result for an already answered call (retries): pair it, flag it.
        const call = all[all.length - 1] as number
        calls[call]?.results.push(resultIndex)
        return resultInfo(ref, part.callId, call, 'id', 'extra-result')
      }
      return resultInfo(ref, part.callId, -1, 'none', 'orphan')
    }
    const call = this.positionalCandidate(part.name)
    if (call === -1) return resultInfo(ref, part.callId, -1, 'none', 'orphan')
    this.answer(call, resultIndex)
    return resultInfo(ref, part.callId, call, 'position', 'missing-id')
  }

  private positionalCandidate(name: string | undefined): number {
    const { calls, openByMessage } = this
    // Newest assistant message that still waits for answers.
    while (openByMessage.length > 0) {
      const last = openByMessage[openByMessage.length - 1]
      if (last && last.calls.some((c) => calls[c]?.results.length === 0)) break
      openByMessage.pop()
    }
    const group = openByMessage[openByMessage.length - 1]
    if (!group) return -1
    const waiting = group.calls.filter((c) => calls[c]?.results.length === 0)
    const byName = name ? waiting.find((c) => calls[c]?.part.name === name) : undefined
    return byName ?? waiting[0] ?? -1
  }

  private answer(call: number, resultIndex: number): void {
    const c = this.calls[call]
    if (!c) return
    c.results.push(resultIndex)
    const id = c.part.callId
    if (usableId(id)) {
      const open = this.openById.get(id)
      if (open) {
        const at = open.lastIndexOf(call)
        if (at !== -1) open.splice(at, 1)
      }
    }
  }
}

/**
 * A result's record, always from this one literal with `flag` always present (undefined when
 * unflagged): every ResultInfo then has one hidden class. Built by spreading the ref (as it was),
 * V8 gave nearly every record a map of its own (411 maps for 420 calls in one fleet file), so
 * every function reading `pairing.results[i]` or `pairing.calls[i]` was deoptimised ('wrong
 * map') and compiled again, file after file.
 */
function resultInfo(
  ref: PartRef,
  callId: string | null,
  call: number,
  pairedBy: PairedBy,
  flag: ResultInfo['flag'],
): ResultInfo {
  return { message: ref.message, part: ref.part, callId, call, pairedBy, flag }
}

function pushTo(map: Map<string, number[]>, key: string, value: number): void {
  const list = map.get(key)
  if (list) list.push(value)
  else map.set(key, [value])
}
