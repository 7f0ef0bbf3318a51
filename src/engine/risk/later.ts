import type { Conversation, Message } from '../model.ts'
import { contentWords, type Phrase } from './phrases.ts'
import { isEvidenceKey } from './strings.ts'
import { partPhrases, type RiskIndex } from './transcript-index.ts'

/** First index in ascending `list` whose value is > `after`. */
function firstAfter(list: readonly number[], after: number): number {
  let lo = 0
  let hi = list.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if ((list[mid] as number) > after) hi = mid
    else lo = mid + 1
  }
  return lo
}

/** Looks strings up in the assistant messages after a point (same thread). */
export class Finder {
  private readonly messages: readonly Message[]
  private readonly index: RiskIndex

  constructor(messages: readonly Message[], index: RiskIndex) {
    this.messages = messages
    this.index = index
  }

  /** The first assistant message after `end`, in the same thread, that uses `key`; or -1. */
  keyUse(key: string, end: number, thread: string | undefined): number {
    const list = this.index.uses.get(key)
    if (!list) return -1
    for (let i = firstAfter(list, end); i < list.length; i++) {
      const m = list[i] as number
      if (this.messages[m]?.sidechain === thread) return m
    }
    return -1
  }

  /** Same for a phrase: candidates from its rarest content word, then a substring check. */
  phraseUse(phrase: Phrase, end: number, thread: string | undefined): number {
    let rarest: readonly number[] | null = null
    for (const w of contentWords(phrase.key)) {
      const list = this.index.words.get(w)
      if (!list) return -1 // a word the agent never wrote: the phrase cannot be there
      if (!rarest || list.length < rarest.length) rarest = list
    }
    if (!rarest) return -1
    const needle = ` ${phrase.key} `
    for (let i = firstAfter(rarest, end); i < rarest.length; i++) {
      const m = rarest[i] as number
      if (this.messages[m]?.sidechain !== thread) continue
      if (this.index.spoken[m]?.includes(needle)) return m
    }
    return -1
  }
}

/** A key or phrase of a part and the first later assistant message that uses it. */
export interface KeyUse {
  readonly key: string
  readonly later: number
}
export interface PhraseUse {
  readonly phrase: Phrase
  readonly later: number
}

/**
 * Where the strings of each part are used later. That depends only on the conversation (a part's
 * group fixes the point after which, and the thread, in which a use counts), not on the config,
 * so it is worked out once per part, on the first run that removes it, and shared by every later
 * run over the same conversation: a run then pays only for what the kept context knows.
 */
export class LaterUses {
  private readonly conversation: Conversation
  private readonly index: RiskIndex
  private readonly find: Finder
  private readonly keys: (readonly KeyUse[] | undefined)[] = []
  private readonly phrases: (readonly PhraseUse[] | undefined)[] = []

  constructor(conversation: Conversation, index: RiskIndex) {
    this.conversation = conversation
    this.index = index
    this.find = new Finder(conversation.messages, index)
  }

  /** Evidence keys of flat part `flat` used after `end` (its group's last message), in key order. */
  keysOf(flat: number, end: number, thread: string | undefined): readonly KeyUse[] {
    let found = this.keys[flat]
    if (!found) {
      const out: KeyUse[] = []
      for (const key of this.index.partKeys[flat] ?? []) {
        if (!isEvidenceKey(key)) continue
        const later = this.find.keyUse(key, end, thread)
        if (later >= 0) out.push({ key, later })
      }
      this.keys[flat] = found = out
    }
    return found
  }

  /** Phrases of flat part `flat` used after `end`, in phrase order. */
  phrasesOf(flat: number, end: number, thread: string | undefined): readonly PhraseUse[] {
    let found = this.phrases[flat]
    if (!found) {
      const out: PhraseUse[] = []
      const m = this.index.messageOf[flat] as number
      const part = this.conversation.messages[m]?.parts[flat - (this.index.offset[m] as number)]
      for (const phrase of part ? partPhrases(part) : []) {
        const later = this.find.phraseUse(phrase, end, thread)
        if (later >= 0) out.push({ phrase, later })
      }
      this.phrases[flat] = found = out
    }
    return found
  }
}

const cache = new WeakMap<RiskIndex, LaterUses>()

/** The later uses of a conversation's parts, shared by every run on it (see {@link LaterUses}). */
export function laterUsesOf(conversation: Conversation, index: RiskIndex): LaterUses {
  let uses = cache.get(index)
  if (!uses) {
    uses = new LaterUses(conversation, index)
    cache.set(index, uses)
  }
  return uses
}
