import type { Conversation, Message, Part } from '../model.ts'
import { nextWord, normalizeText } from './phrases.ts'
import { partText, type RiskIndex } from './transcript-index.ts'

/**
 * For each word the assistant spoke, the parts whose normalised text holds it, and the length of
 * every part's normalised text. A phrase can only count as used when the assistant spoke all of
 * its content words (see `Finder.phraseUse`), so those words are the only ones a kept-context check
 * ever looks up: the parts holding the phrase's rarest word are its only candidates, and only a
 * candidate's normalised text is ever read. Computed once per conversation and shared by every run.
 *
 * The normalised text of every part is not kept: it was as large as the transcript, built word by
 * word and held for the conversation's life (most of the risk check's garbage on a fleet), while
 * a check reads a few candidates. One scan of the lower-cased text finds the same words
 * `normalizeText` would write, and a word is sliced out only when its hash is one of a spoken word's.
 */
export interface PartWords {
  /** Flat part → length of its normalised text (what the phrase checks' budget counts). */
  readonly lengths: Float64Array
  /** Spoken word → flat parts whose normalised text holds it as a word, ascending. */
  readonly postings: ReadonlyMap<string, readonly number[]>
  /** Flat part → its normalised text (made on first use, then kept). */
  textOf(flat: number): string
}

/** FNV-1a over `s[start, end)`: the same figure for a spoken word and for a run of a part. */
function hashOf(s: string, start: number, end: number): number {
  let h = 0x811c9dc5
  for (let i = start; i < end; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193)
  return h >>> 0
}

/** A bit per hash bucket, one set for each spoken word: a clear bit means "not a spoken word". */
interface WordFilter {
  readonly bits: Uint32Array
  readonly mask: number
  readonly maxLength: number
}

function filterOf(words: Iterable<string>, count: number): WordFilter {
  // About 16 buckets per word: few runs that are not spoken words get sliced out.
  let size = 4096
  while (size < count * 16 && size < 1 << 24) size *= 2
  const bits = new Uint32Array(size >>> 5)
  const mask = size - 1
  let maxLength = 0
  for (const w of words) {
    const b = hashOf(w, 0, w.length) & mask
    bits[b >>> 5] = (bits[b >>> 5] as number) | (1 << (b & 31))
    if (w.length > maxLength) maxLength = w.length
  }
  return { bits, mask, maxLength }
}

const cache = new WeakMap<RiskIndex, PartWords>()

export function partWordsOf(conversation: Conversation, index: RiskIndex): PartWords {
  const hit = cache.get(index)
  if (hit) return hit
  const parts: Part[] = []
  for (const msg of conversation.messages as readonly Message[])
    for (const p of msg.parts) parts.push(p)
  const lengths = new Float64Array(parts.length)
  const postings = new Map<string, number[]>()
  const spoken = index.words
  const { bits, mask, maxLength } = filterOf(spoken.keys(), spoken.size)
  const at = new Int32Array(3)
  for (let flat = 0; flat < parts.length; flat++) {
    // The words `normalizeText` writes: runs of word characters of the lower-cased text, edges
    // trimmed; its length is theirs plus one space between and one at each end.
    const lower = partText(parts[flat] as Part).toLowerCase()
    let count = 0
    let chars = 0
    for (let i = 0; nextWord(lower, i, at); i = at[2] as number) {
      const start = at[0] as number
      const end = at[1] as number
      const length = end - start
      if (length === 0) continue
      count++
      chars += length
      if (length < 3 || length > maxLength) continue
      const b = hashOf(lower, start, end) & mask
      if (((bits[b >>> 5] as number) & (1 << (b & 31))) === 0) continue
      const w = lower.slice(start, end)
      if (!spoken.has(w)) continue
      const list = postings.get(w)
      if (!list) postings.set(w, [flat])
      else if (list[list.length - 1] !== flat) list.push(flat)
    }
    lengths[flat] = count > 0 ? chars + count + 1 : 2
  }
  const texts = new Map<number, string>()
  const textOf = (flat: number): string => {
    let text = texts.get(flat)
    if (text === undefined) {
      text = normalizeText(partText(parts[flat] as Part))
      texts.set(flat, text)
    }
    return text
  }
  const words: PartWords = { lengths, postings, textOf }
  cache.set(index, words)
  return words
}
