/**
 * Prompt caches as providers run them, replayed call by call. A prompt is a run of tokens; what a
 * call can read from the cache is the longest prefix it shares with something cached and still
 * alive; the rest is written (Anthropic, at a premium) or sent uncached (OpenAI, Gemini).
 *
 * Positions are provider tokens from the start of the prompt. `firstChange` is where this prompt
 * first differs from the previous prompt of the same context (Infinity when it only appended):
 * compaction, stripped thinking and upstream compactions move it.
 */

import type { Provider } from './prices.ts'

export type CacheTtl = '5m' | '1h'

export interface CacheSettings {
  readonly provider: Provider
  /** Anthropic TTL of the breakpoints (Claude Code uses 5 minutes unless told otherwise). */
  readonly ttl: CacheTtl
  /** False: no prompt caching at all (every token is uncached input). */
  readonly enabled?: boolean
}

/** How a call's prompt splits between cache reads, cache writes and uncached input. */
export interface CallCache {
  readonly read: number
  readonly write: number
  readonly uncached: number
}

interface Entry {
  /** Prefix length (tokens) this cache entry holds. */
  readonly end: number
  /** Last time (ms) it was written or read: it lives `ttl` after that. */
  lastUse: number
}

/** Anthropic looks back this many block boundaries for a hit; older entries do not help. */
const LOOKBACK = 20
const MINUTE = 60_000

/** OpenAI: prompts under 1,024 tokens are not cached; hits grow in steps of 128 tokens. */
export const OPENAI_MIN = 1024
export const OPENAI_STEP = 128
/** OpenAI keeps an idle prefix for 5–10 minutes (up to an hour off-peak): the documented typical. */
const OPENAI_TTL = 10 * MINUTE
/** Gemini implicit caching: a minimum prompt size (2.5 Flash 1,024, Pro 2,048) and a short life. */
const GEMINI_MIN = 1024
const GEMINI_TTL = 5 * MINUTE

/** One context's cache (a thread of the conversation: the main agent, or one sub-agent). */
export class PromptCache {
  private readonly entries: Entry[] = []
  private readonly settings: CacheSettings

  constructor(settings: CacheSettings) {
    this.settings = settings
  }

  private ttlMs(): number {
    switch (this.settings.provider) {
      case 'anthropic':
        return this.settings.ttl === '1h' ? 60 * MINUTE : 5 * MINUTE
      case 'openai':
        return OPENAI_TTL
      case 'gemini':
        return GEMINI_TTL
    }
  }

  /**
   * The cache's answer for a prompt of `total` tokens sent at `now` (ms; NaN when unknown, which
   * never expires anything) that first differs from the previous one at `firstChange`. `stable` is
   * the end of the part that never changes within the session (system + tools): Anthropic agents
   * put a breakpoint there. With `commit: false` nothing is recorded (what-if questions).
   */
  call(total: number, firstChange: number, stable: number, now: number, commit = true): CallCache {
    if (this.settings.enabled === false) return { read: 0, write: 0, uncached: total }
    const ttl = this.ttlMs()
    // No closures here: this runs two or three times per replayed call.
    const ageless = !Number.isFinite(now)
    const limit = Math.min(firstChange, total)
    // Anthropic reads whole cached blocks only (an entry past the first change holds content this
    // prompt no longer has); OpenAI and Gemini match the longest common prefix of any cached prompt.
    const whole = this.settings.provider === 'anthropic'
    let longest: Entry | null = null
    let read = 0
    for (const e of this.entries) {
      // Written as `!(… <= ttl)`: an entry last used at an unknown time (NaN) is not alive.
      if (!ageless && !(now - e.lastUse <= ttl)) continue
      const shared = whole ? (e.end <= limit ? e.end : 0) : Math.min(e.end, limit)
      if (shared > read) {
        read = shared
        longest = e
      }
    }
    let write = 0
    let uncached = 0
    switch (this.settings.provider) {
      case 'anthropic':
        // Breakpoints at the end of the stable prefix and at the end of the prompt: everything
        // not read is written.
        write = total - read
        break
      case 'openai':
        read =
          read >= OPENAI_MIN
            ? OPENAI_MIN + Math.floor((read - OPENAI_MIN) / OPENAI_STEP) * OPENAI_STEP
            : 0
        uncached = total - read
        break
      case 'gemini':
        read = read >= GEMINI_MIN ? read : 0
        uncached = total - read
        break
    }
    if (commit) this.record(total, stable, now, longest, firstChange)
    return { read, write, uncached }
  }

  /** An entry ending at `end` is written or refreshed at `now`. */
  private put(end: number, now: number): void {
    if (end <= 0) return
    for (const e of this.entries)
      if (e.end === end) {
        e.lastUse = now
        return
      }
    this.entries.push({ end, lastUse: now })
  }

  private record(
    total: number,
    stable: number,
    now: number,
    hit: Entry | null,
    firstChange: number,
  ): void {
    // Content past the change is gone for good: drop entries that reach beyond it.
    for (let i = this.entries.length - 1; i >= 0; i--)
      if ((this.entries[i] as Entry).end > firstChange) this.entries.splice(i, 1)
    if (hit) hit.lastUse = now
    // The stable prefix is read (refreshed) by every call when it is cached.
    if (stable > 0 && stable <= total) this.put(stable, now)
    this.put(total, now)
    // Beyond the lookback, the least recently used entry goes — never the stable prefix's, which
    // every call refreshes and which is what a call falls back to when the rest changed.
    while (this.entries.length > LOOKBACK) {
      let drop = -1
      for (let i = 0; i < this.entries.length; i++) {
        const e = this.entries[i] as Entry
        if (e.end === stable) continue
        if (drop < 0 || e.lastUse < (this.entries[drop] as Entry).lastUse) drop = i
      }
      if (drop < 0) break
      this.entries.splice(drop, 1)
    }
    sortByEnd(this.entries)
  }
}

/**
 * In place, by insertion: at most LOOKBACK + 2 entries, nearly in order already, at every model
 * call of a replay; `Array.prototype.sort` copied them into a work array each time (11 MB over a
 * 5,000-call replay).
 */
function sortByEnd(entries: Entry[]): void {
  for (let i = 1; i < entries.length; i++) {
    const e = entries[i] as Entry
    let j = i - 1
    while (j >= 0 && (entries[j] as Entry).end > e.end) {
      entries[j + 1] = entries[j] as Entry
      j--
    }
    entries[j + 1] = e
  }
}
