import type { Conversation, Message, Part } from '../model.ts'
import { normalizeText } from './phrases.ts'
import { partText, type RiskIndex } from './transcript-index.ts'

/**
 * The normalised text of every part of a conversation, and for each word the assistant spoke,
 * the parts holding it. A phrase can only count as used when the assistant spoke all of its
 * content words (see `Finder.phraseUse`), so those words are the only ones a kept-context check
 * ever looks up: the parts holding the phrase's rarest word are its only candidates. Computed
 * once per conversation and shared by every run.
 */
export interface PartWords {
  /** Flat part → normalised text. */
  readonly texts: readonly string[]
  /** Spoken word → flat parts whose normalised text holds it as a word, ascending. */
  readonly postings: ReadonlyMap<string, readonly number[]>
}

const normalized = new WeakMap<Part, string>()

/** A part's normalised text, computed once per part object. */
export function normalizedOf(part: Part): string {
  let text = normalized.get(part)
  if (text === undefined) {
    text = normalizeText(partText(part))
    normalized.set(part, text)
  }
  return text
}

const cache = new WeakMap<RiskIndex, PartWords>()

export function partWordsOf(conversation: Conversation, index: RiskIndex): PartWords {
  const hit = cache.get(index)
  if (hit) return hit
  const texts: string[] = []
  const postings = new Map<string, number[]>()
  conversation.messages.forEach((msg: Message) => {
    for (const part of msg.parts) {
      const flat = texts.length
      const text = normalizedOf(part)
      texts.push(text)
      for (const w of text.split(' ')) {
        if (w.length < 3 || !index.words.has(w)) continue
        const list = postings.get(w)
        if (!list) postings.set(w, [flat])
        else if (list[list.length - 1] !== flat) list.push(flat)
      }
    }
  })
  const words: PartWords = { texts, postings }
  cache.set(index, words)
  return words
}
