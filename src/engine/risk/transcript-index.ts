import type { Grouping } from '../groups.ts'
import type { Conversation, Message, Part } from '../model.ts'
import { contentWords, extractPhrases, normalizeText, type Phrase } from './phrases.ts'
import { coverKeys, extractKeys, isEvidenceKey, wantedKeys, type Wanted } from './strings.ts'

/**
 * Everything the risk check needs to know about a conversation, computed once and shared by every
 * run on it (a sweep runs dozens of configs): the distinctive keys of every part, which parts hold
 * each key, and which assistant messages *use* each key (in their text or tool-call arguments).
 * A run then only looks up the keys of what it removed — near-linear overall.
 */
export interface RiskIndex {
  /** Index of each message's first part in the flat part numbering (length: messages + 1). */
  readonly offset: Int32Array
  /** Flat part → its message index. */
  readonly messageOf: Int32Array
  /** Flat part → its keys that some assistant message uses (or that cover such a key). */
  readonly partKeys: readonly (readonly string[])[]
  /** Key → flat parts holding it, ascending (where the kept context may still have it); only
   * for the keys of `partKeys`. */
  readonly holders: ReadonlyMap<string, readonly number[]>
  /** Key → assistant messages whose text or tool-call arguments use it, ascending. */
  readonly uses: ReadonlyMap<string, readonly number[]>
  /** Content word → assistant messages using it, ascending (candidates for phrase matches). */
  readonly words: ReadonlyMap<string, readonly number[]>
  /** Normalised text + arguments of each assistant message ('' for other roles). */
  readonly spoken: readonly string[]
  /** Keys of the tool definitions (always in the context) and of the top-level system prompt. */
  readonly toolKeys: ReadonlySet<string>
  readonly systemKeys: ReadonlySet<string>
  /** Normalised text of the tool definitions and of the system prompt, for phrase checks. */
  readonly toolText: string
  readonly systemText: string
  /** `callsBefore[i]`: assistant messages before message `i` (length: messages + 1). */
  readonly callsBefore: Int32Array
  /** Last message index of each group (-1 for the top-level system group). */
  readonly groupEnd: Int32Array
  /** The only keys a risk can be about: those some assistant message uses, and their covers. */
  readonly wanted: Wanted
}

/** Collect the string (and number) values of tool-call arguments, not their keys. */
function argStrings(value: unknown, out: string[], depth = 0): void {
  if (depth > 8) return
  if (typeof value === 'string') out.push(value)
  else if (typeof value === 'number') out.push(String(value))
  else if (Array.isArray(value)) for (const v of value) argStrings(v, out, depth + 1)
  else if (value && typeof value === 'object')
    for (const v of Object.values(value)) argStrings(v, out, depth + 1)
}

/**
 * The readable text of a part. Tool calls contribute their argument *values* only: argument
 * names (`file_path`) belong to the tool's schema, not to anything the agent read.
 */
export function partText(part: Part): string {
  const text = rawText(part)
  // Sanitised transcripts replace text by `[REDACTED_TEXT len=246 sha=980b7167]`: its length and
  // hash are not content, and would match every other placeholder of the same length.
  return text.includes('[REDACTED_') ? text.replace(REDACTION, ' ') : text
}

const REDACTION = /\[REDACTED_[A-Z_]+ len=\d+[^\]]*\]/g

function rawText(part: Part): string {
  switch (part.kind) {
    case 'text':
    case 'reasoning':
      return part.text
    case 'tool_call': {
      if (part.args === undefined) return part.argsRaw
      const out: string[] = []
      argStrings(part.args, out)
      return out.join('\n')
    }
    case 'tool_result':
      return part.content.map((c) => (c.kind === 'text' ? c.text : '')).join('\n')
    case 'image':
    case 'file':
    case 'opaque':
      return ''
    default: {
      const unknownPart: never = part
      return unknownPart
    }
  }
}

/** Whether a part is something the agent *said* (not thought): text and tool-call arguments. */
const isSpoken = (p: Part): boolean => p.kind === 'text' || p.kind === 'tool_call'

const phraseCache = new WeakMap<Part, readonly Phrase[]>()

/** The phrases of a part (quoted strings, error messages), computed once per part object. */
export function partPhrases(part: Part): readonly Phrase[] {
  let found = phraseCache.get(part)
  if (!found) {
    found = extractPhrases(partText(part))
    phraseCache.set(part, found)
  }
  return found
}

function push(map: Map<string, number[]>, key: string, value: number): void {
  const list = map.get(key)
  if (!list) map.set(key, [value])
  else if (list[list.length - 1] !== value) list.push(value)
}

const cache = new WeakMap<Conversation, RiskIndex>()

/**
 * The index of a conversation (cached per conversation object; the grouping must be its own).
 *
 * Two passes: first what the assistant said (its keys are the only ones a risk can be about),
 * then every part, keeping only those keys — and the basenames that cover them — so the
 * postings stay small however much tool output the transcript holds.
 */
export function riskIndexOf(conversation: Conversation, grouping: Grouping): RiskIndex {
  const hit = cache.get(conversation)
  if (hit) return hit
  const { messages } = conversation
  const offset = new Int32Array(messages.length + 1)
  for (let m = 0; m < messages.length; m++)
    offset[m + 1] = (offset[m] as number) + (messages[m] as Message).parts.length
  const messageOf = new Int32Array(offset[messages.length] as number)
  const uses = new Map<string, number[]>()
  const words = new Map<string, number[]>()
  const spoken: string[] = []
  const callsBefore = new Int32Array(messages.length + 1)
  const spokenKeys = new Map<Part, readonly string[]>()

  messages.forEach((msg, m) => {
    const assistant = msg.role === 'assistant'
    callsBefore[m + 1] = (callsBefore[m] as number) + (assistant ? 1 : 0)
    const said: string[] = []
    if (assistant) {
      for (const part of msg.parts) {
        if (!isSpoken(part)) continue
        const text = partText(part)
        const keys = text ? [...extractKeys(text)] : []
        spokenKeys.set(part, keys)
        for (const k of keys) push(uses, k, m)
        if (text) said.push(text)
      }
    }
    const normal = said.length > 0 ? normalizeText(said.join('\n')) : ''
    spoken.push(normal)
    for (const w of new Set(contentWords(normal.trim()))) push(words, w, m)
  })

  const wanted = new Set<string>()
  for (const k of uses.keys()) if (isEvidenceKey(k)) for (const c of coverKeys(k)) wanted.add(c)
  const only = wantedKeys(wanted)
  const partKeys: (readonly string[])[] = []
  const holders = new Map<string, number[]>()
  const scratch = new Set<string>()
  messages.forEach((msg, m) => {
    msg.parts.forEach((part, p) => {
      const flat = (offset[m] as number) + p
      messageOf[flat] = m
      let keys = spokenKeys.get(part)
      if (!keys && wanted.size > 0) {
        const text = partText(part)
        scratch.clear()
        if (text) extractKeys(text, scratch, only)
        keys = [...scratch]
      }
      const kept = (keys ?? []).filter((k) => wanted.has(k))
      partKeys.push(kept)
      for (const k of kept) push(holders, k, flat)
    })
  })

  const toolRaw = conversation.tools.map((t) => t.raw).join('\n')
  const systemRaw = conversation.system.map((s) => s.text).join('\n')
  const groupEnd = new Int32Array(grouping.groups.length)
  grouping.groups.forEach((g, i) => {
    // `messages` is ascending: the last one ends the group.
    groupEnd[i] = g.messages[g.messages.length - 1] ?? -1
  })
  const index: RiskIndex = {
    offset,
    messageOf,
    partKeys,
    holders,
    uses,
    words,
    spoken,
    toolKeys: extractKeys(toolRaw),
    systemKeys: extractKeys(systemRaw),
    toolText: normalizeText(toolRaw),
    systemText: normalizeText(systemRaw),
    callsBefore,
    groupEnd,
    wanted: only,
  }
  cache.set(conversation, index)
  return index
}
