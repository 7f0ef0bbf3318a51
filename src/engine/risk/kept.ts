import type { Conversation, Message, Part } from '../model.ts'
import { contentWords, normalizeText } from './phrases.ts'
import { coverKeys, extractKeys } from './strings.ts'
import { partWordsOf } from './part-words.ts'
import { partText, type RiskIndex } from './transcript-index.ts'

/**
 * What the config kept, positioned on the original transcript: a string is *known before* a
 * later message `L` when the projection still holds it in a message that came before `L` (an
 * original message left as it was, a stub or trim that kept it, an inserted summary), in the
 * system prompt, or in the tool definitions. Positions are original message indexes; an
 * inserted summary sits half-way after the original message it follows.
 */
export class KeptContext {
  /** Original part objects still in the projection. */
  readonly keptParts: ReadonlySet<Part>
  private readonly systemKept: boolean
  /** Keys of parts the run created (replacements, summaries) → earliest position. */
  private readonly newKeys = new Map<string, number>()
  /** Normalised text of the parts the run created, in projection order. */
  private readonly newTexts: { readonly pos: number; readonly made: Created }[] = []
  /** Word → indexes in `newTexts` holding it, built on the first phrase check that needs it. */
  private newWords: Map<string, number[]> | null = null
  /** Phrase → earliest position of a created part holding it (Infinity: none). */
  private readonly newPhraseAt = new Map<string, number>()
  private readonly firstKept = new Map<string, number>()
  /** Per phrase: how far the scan of kept originals got, and where it found the phrase. */
  private readonly phraseScan = new Map<string, { upTo: number; at: number }>()
  /** Characters of kept text phrase checks may still scan; past it, a phrase counts as known. */
  private budget: number
  private readonly original: Conversation
  private readonly index: RiskIndex

  constructor(
    original: Conversation,
    projection: Conversation,
    index: RiskIndex,
    phraseBudget: number,
  ) {
    this.original = original
    this.index = index
    this.budget = phraseBudget
    this.systemKept = projection.system.length > 0
    const kept = new Set<Part>()
    const originalAt = new Map<string, number>()
    original.messages.forEach((m, i) => originalAt.set(m.id, i))
    let last = -1
    for (const msg of projection.messages) {
      const at = originalAt.get(msg.id)
      const source = at !== undefined ? (original.messages[at] as Message) : null
      if (at !== undefined) last = at
      const pos = at ?? last + 0.5
      for (const part of msg.parts) {
        if (source?.parts.includes(part)) {
          kept.add(part)
          continue
        }
        const made = createdOf(part, index)
        if (!made) continue
        for (const k of made.keys) {
          if (!this.newKeys.has(k)) this.newKeys.set(k, pos)
        }
        this.newTexts.push({ pos, made })
      }
    }
    this.keptParts = kept
  }

  /** Earliest position at which the kept context holds `key` exactly (Infinity: nowhere). */
  private earliest(key: string): number {
    const memo = this.firstKept.get(key)
    if (memo !== undefined) return memo
    let at = Infinity
    if (this.index.toolKeys.has(key) || (this.systemKept && this.index.systemKeys.has(key))) at = -1
    else {
      const { messageOf, offset } = this.index
      for (const flat of this.index.holders.get(key) ?? []) {
        const m = messageOf[flat] as number
        const part = (this.original.messages[m] as Message).parts[flat - (offset[m] as number)]
        if (part && this.keptParts.has(part)) {
          at = m
          break // holders are ascending: the first kept one is the earliest
        }
      }
      at = Math.min(at, this.newKeys.get(key) ?? Infinity)
    }
    this.firstKept.set(key, at)
    return at
  }

  /** Whether the kept context holds `key` (or a key that covers it) before message `later`. */
  knowsKey(key: string, later: number): boolean {
    return coverKeys(key).some((k) => this.earliest(k) < later)
  }

  /**
   * Earliest position of a part the run created whose text holds `needle`. A run can create
   * thousands of parts (stubs, trims, summaries) and check thousands of phrases: scanning every
   * created text per phrase was most of the check's cost. A text holding ` phrase ` holds each of
   * its words as a space-delimited word, so only the texts holding its rarest word are scanned.
   */
  private earliestNew(phrase: string, needle: string): number {
    const memo = this.newPhraseAt.get(phrase)
    if (memo !== undefined) return memo
    let words = this.newWords
    if (!words) {
      words = new Map()
      this.newTexts.forEach((t, i) => {
        for (const w of wordsOf(t.made)) {
          const list = words?.get(w)
          if (!list) words?.set(w, [i])
          else if (list[list.length - 1] !== i) list.push(i)
        }
      })
      this.newWords = words
    }
    let candidates: readonly number[] | null = null
    for (const w of contentWords(phrase)) {
      const list = words.get(w)
      if (!list) candidates = []
      else if (!candidates || list.length < candidates.length) candidates = list
      if (candidates.length === 0) break
    }
    let at = Infinity
    if (candidates) {
      for (const i of candidates) {
        const t = this.newTexts[i] as { readonly pos: number; readonly made: Created }
        if (t.pos < at && normalOf(t.made).includes(needle)) at = t.pos
      }
    } else {
      // No content word to narrow by (phrases always have some; kept for safety): scan all.
      for (const t of this.newTexts) if (t.pos < at && normalOf(t.made).includes(needle)) at = t.pos
    }
    this.newPhraseAt.set(phrase, at)
    return at
  }

  /**
   * Whether the kept context holds the normalised `phrase` before message `later`. Scans kept
   * parts in order, resuming where an earlier check on the same phrase stopped; once the scan
   * budget is spent the answer is "known", so a cut-off can only lose evidence, never invent it.
   */
  knowsPhrase(phrase: string, later: number): boolean {
    const needle = ` ${phrase} `
    if (this.index.toolText.includes(needle)) return true
    if (this.systemKept && this.index.systemText.includes(needle)) return true
    if (this.earliestNew(phrase, needle) < later) return true
    const scan = this.phraseScan.get(phrase) ?? { upTo: 0, at: Infinity }
    if (scan.at === Infinity && scan.upTo < later) {
      // What the scan of kept originals from `upTo` would do, without reading every kept part:
      // the first kept part holding the phrase comes from the parts holding its rarest word, and
      // the characters the scan would have read (the budget) from prefix sums of kept lengths.
      const { offset, messageOf } = this.index
      const start = offset[scan.upTo] as number
      const limit = offset[later] as number
      const found = this.firstKeptHolding(phrase, needle, start, limit)
      const stop = found >= 0 ? found + 1 : limit
      const read = this.keptPrefix()
      const base = read[start] as number
      const cost = (read[stop] as number) - base
      if (cost > 0 && cost > this.budget) {
        // The budget runs out at the first kept part that takes the read past it: the scan
        // finished the messages before that part's, then answered "known" without saving.
        let lo = start
        let hi = stop - 1
        while (lo < hi) {
          const mid = (lo + hi) >> 1
          if ((read[mid + 1] as number) - base > this.budget) hi = mid
          else lo = mid + 1
        }
        this.budget -= (read[lo + 1] as number) - base
        scan.upTo = messageOf[lo] as number
        return true
      }
      this.budget -= cost
      if (found >= 0) {
        scan.at = messageOf[found] as number
        scan.upTo = scan.at + 1
      } else scan.upTo = later
    }
    this.phraseScan.set(phrase, scan)
    return scan.at < later
  }

  /** Flat part → kept; and characters of kept normalised text before each flat part. */
  private keptFlags: Uint8Array | null = null
  private keptRead: Float64Array | null = null

  private keptPrefix(): Float64Array {
    if (this.keptRead) return this.keptRead
    const { lengths } = partWordsOf(this.original, this.index)
    const flags = new Uint8Array(lengths.length)
    const read = new Float64Array(lengths.length + 1)
    let flat = 0
    for (const msg of this.original.messages) {
      for (const part of msg.parts) {
        const kept = this.keptParts.has(part)
        flags[flat] = kept ? 1 : 0
        read[flat + 1] = (read[flat] as number) + (kept ? (lengths[flat] as number) : 0)
        flat++
      }
    }
    this.keptFlags = flags
    this.keptRead = read
    return read
  }

  /** First kept flat part in [start, limit) whose normalised text holds `needle`; or -1. */
  private firstKeptHolding(phrase: string, needle: string, start: number, limit: number): number {
    const { textOf, postings } = partWordsOf(this.original, this.index)
    this.keptPrefix()
    const flags = this.keptFlags as Uint8Array
    let rarest: readonly number[] | null = null
    for (const w of contentWords(phrase)) {
      // A word the assistant never spoke has no postings: fall back to reading every part.
      if (!this.index.words.has(w)) {
        rarest = null
        break
      }
      const list = postings.get(w)
      // A spoken word no part holds: no normalised text holds ` phrase `, which holds the word.
      if (!list) return -1
      if (!rarest || list.length < rarest.length) rarest = list
    }
    if (!rarest) {
      for (let f = start; f < limit; f++) if (flags[f] === 1 && textOf(f).includes(needle)) return f
      return -1
    }
    let lo = 0
    let hi = rarest.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if ((rarest[mid] as number) >= start) hi = mid
      else lo = mid + 1
    }
    for (let i = lo; i < rarest.length; i++) {
      const f = rarest[i] as number
      if (f >= limit) break
      if (flags[f] === 1 && textOf(f).includes(needle)) return f
    }
    return -1
  }
}

/** A part a run created: its keys that a risk can be about, and its text (normalised lazily). */
interface Created {
  readonly keys: readonly string[]
  readonly raw: string
  normal?: string
  /** Distinct words of the normalised text with 3+ characters (shorter are never content words). */
  words?: readonly string[]
}

const normalOf = (made: Created): string => (made.normal ??= normalizeText(made.raw))

function wordsOf(made: Created): readonly string[] {
  if (!made.words) {
    const distinct = new Set<string>()
    for (const w of normalOf(made).split(' ')) if (w.length >= 3) distinct.add(w)
    made.words = [...distinct]
  }
  return made.words
}

/**
 * Created parts recur from run to run: strategies memoise some replacements per original part
 * (same object), others are rebuilt with the same text (stubs, summaries: one preset rewrites
 * 6 MB of the bench transcript as new messages on every run). Extracting their keys afresh on
 * every run was most of a re-run's cost; cache by part object and by text (bounded in
 * characters: a sweep makes many configs, each with its own texts). Only the index's wanted keys are
 * extracted (the only ones `earliest` is asked about), which skips most of a long summary or
 * trimmed output. Per index, since the wanted keys are the conversation's.
 */
interface CreatedCache {
  readonly byPart: WeakMap<Part, Created | null>
  readonly byText: Map<string, Created>
  chars: number
}
const createdCaches = new WeakMap<RiskIndex, CreatedCache>()
/** Characters of created text the by-text cache may hold before it starts afresh. */
const MAX_CACHED_CHARS = 64_000_000

function createdOf(part: Part, index: RiskIndex): Created | null {
  let cache = createdCaches.get(index)
  if (!cache) {
    cache = { byPart: new WeakMap(), byText: new Map(), chars: 0 }
    createdCaches.set(index, cache)
  }
  let made = cache.byPart.get(part)
  if (made !== undefined) return made
  const text = partText(part)
  if (!text) made = null
  else {
    made = cache.byText.get(text)
    if (!made) {
      made = { keys: [...extractKeys(text, new Set(), index.wanted)], raw: text }
      if (cache.chars + text.length > MAX_CACHED_CHARS) {
        cache.byText.clear()
        cache.chars = 0
      }
      cache.byText.set(text, made)
      cache.chars += text.length
    }
  }
  cache.byPart.set(part, made)
  return made
}
