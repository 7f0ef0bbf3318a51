import type { Conversation, Message, Part } from '../model.ts'
import { contentWords, normalizeText } from './phrases.ts'
import { coverKeys, extractKeys } from './strings.ts'
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
  private readonly newTexts: { readonly pos: number; readonly text: string }[] = []
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
        const text = partText(part)
        if (!text) continue
        for (const k of extractKeys(text)) {
          if (!this.newKeys.has(k)) this.newKeys.set(k, pos)
        }
        this.newTexts.push({ pos, text: normalizeText(text) })
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
        for (const w of t.text.split(' ')) {
          if (w.length < 3) continue // shorter words are never content words
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
        const t = this.newTexts[i] as { readonly pos: number; readonly text: string }
        if (t.pos < at && t.text.includes(needle)) at = t.pos
      }
    } else {
      // No content word to narrow by (phrases always have some; kept for safety): scan all.
      for (const t of this.newTexts) if (t.pos < at && t.text.includes(needle)) at = t.pos
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
    const { messages } = this.original
    for (let m = scan.upTo; m < later && scan.at === Infinity; m++) {
      for (const part of (messages[m] as Message).parts) {
        if (!this.keptParts.has(part)) continue
        const text = normalizedOf(part)
        this.budget -= text.length
        if (this.budget < 0) return true
        if (text.includes(needle)) {
          scan.at = m
          break
        }
      }
      scan.upTo = m + 1
    }
    this.phraseScan.set(phrase, scan)
    return scan.at < later
  }
}

/**
 * A part's normalized text, computed once per part object: every phrase checked against the kept
 * context scans the same parts, and parts are shared by every run over one conversation.
 */
const normalized = new WeakMap<object, string>()
function normalizedOf(part: Part): string {
  let text = normalized.get(part)
  if (text === undefined) {
    text = normalizeText(partText(part))
    normalized.set(part, text)
  }
  return text
}
