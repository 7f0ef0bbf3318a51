/**
 * Counting a text from what is known of another that starts the same way (a truncated result
 * and the result, a capped digest and the digest, the same payload cut at a new budget): the
 * tokens of the shared start are read from checkpoints kept per base text, and only the rest is
 * split and counted. Exact (see {@link Splicer.countSplice}); BpeCounter uses it for
 * `countSplice` and, for long texts, on its own (`countLong`).
 */

/** The piece-by-piece stepping a Splicer counts with (BpeCounter's). */
export interface PieceStepper {
  /** The end of the piece at `i` (its tokens in `pieceTokens`), or -1 when nothing matches. */
  nextPiece(text: string, i: number): number
  readonly pieceTokens: number
}

/** Characters of agreement needed after a checkpoint (3 code points, 2 code units each). */
export const SPLICE_MARGIN = 8
/** Checkpoints at least this many characters apart (a splice re-counts up to ~2× this). */
export const SPLICE_SPACING = 64
/**
 * Characters of texts the tables may hold (bases kept by their start, indexed bases) before they
 * are cleared: a count of a text never seen again keeps at most this much alive (≤ 8 MB of
 * strings, however large the input), and checkpoints are made only for texts spliced onto.
 */
const MAX_HELD_CHARS = 16_000_000
/** Texts whose first characters hash alike are candidate bases of one another. */
const KEY_CHARS = 128
/** Start hashes remembered before the tables are cleared. */
const MAX_STARTS = 200_000

/** A hash of a text's first KEY_CHARS characters (a number: no string kept for a start). */
function startHash(text: string): number {
  const n = Math.min(KEY_CHARS, text.length)
  let h = n
  for (let i = 0; i < n; i++) h = (Math.imul(h, 31) + text.charCodeAt(i)) | 0
  return h
}
/** Candidate bases kept per start key, newest first. */
const CANDIDATES = 4

/** Where counting a base text stopped, and the checkpoints found on the way. */
interface PrefixIndex {
  /** Checkpoint positions, increasing (0 first), and the tokens of the base before each. */
  readonly at: number[]
  readonly tokens: number[]
  /** Counted up to here (a piece boundary), with `total` tokens; `last` is the last checkpoint. */
  pos: number
  total: number
  last: number
}

/** Is the character before `pos` whitespace, or not ASCII (so possibly \s)? */
function endsInSpace(s: string, pos: number): boolean {
  const c = s.charCodeAt(pos - 1)
  return c >= 128 || c === 32 || (c >= 9 && c <= 13)
}

export class Splicer {
  private readonly prefixes = new Map<string, PrefixIndex>()
  /** Start hash → texts kept with that start (newest first), or null: seen once, nothing kept. */
  private readonly bases = new Map<number, string[] | null>()

  private readonly pieces: PieceStepper
  private readonly spacing: number

  constructor(pieces: PieceStepper, spacing: number = SPLICE_SPACING) {
    this.pieces = pieces
    this.spacing = spacing
  }

  /** Tokens of `text` from `from` to its end (the split has no look-behind: see countSplice). */
  countFrom(text: string, from: number): number {
    const pieces = this.pieces
    let total = 0
    for (let i = from; i < text.length;) {
      const end = pieces.nextPiece(text, i)
      if (end === -1) break
      total += pieces.pieceTokens
      i = end
    }
    return total
  }

  /**
   * Tokens of `text` when it is `base` cut at `cut` with something else after it: the tokens of
   * `base` before a checkpoint at least SPLICE_MARGIN characters before the cut, plus a count of
   * the rest of `text`. Exactly the count of `text`:
   *  - the split into pieces goes left to right, and deciding a piece reads at most its own
   *    characters, the whitespace or letter run it ends in, and 3 code points after it (a
   *    contraction like `'ll`); so the pieces of `base` up to a boundary `b` whose preceding
   *    character is not whitespace are also the pieces of any text that agrees with `base` up to
   *    `b + SPLICE_MARGIN` — and from `b` on, `text` is split and counted afresh;
   *  - BPE counts pieces independently, so the tokens before `b` are the same.
   * Checked against whole counts by property tests (bpe.test.ts). A `text` that does not start
   * with `base`'s first `cut` characters is simply counted.
   */
  countSplice(base: string, cut: number, text: string): number {
    if (cut > text.length || cut > base.length) return this.countFrom(text, 0)
    if (!text.startsWith(cut === base.length ? base : base.slice(0, cut)))
      return this.countFrom(text, 0)
    return this.spliceAt(base, cut, text)
  }

  /**
   * `countSplice(base, cut, base.slice(0, cut) + tail)` without that text: the split from a
   * checkpoint on reads nothing before it, so the tokens after the checkpoint are those of the
   * checkpoint's stretch of `base` up to the cut followed by `tail`.
   */
  countSpliceTail(base: string, cut: number, tail: string): number {
    if (cut > base.length) return this.countFrom(base + tail, 0)
    const upTo = cut - SPLICE_MARGIN
    if (upTo <= this.spacing) return this.countFrom(base.slice(0, cut) + tail, 0)
    const { tokens, at } = this.checkpointBefore(base, upTo)
    return tokens + this.countFrom(base.slice(at, cut) + tail, 0)
  }

  /**
   * The count of a long text, spliced onto an earlier text with the same start when there is
   * one (a re-plan's new cut of a text counted before, whoever made it); otherwise counted whole
   * and kept, by its start, as a base for later texts.
   */
  countLong(text: string): number {
    const key = startHash(text)
    const candidates = this.bases.get(key)
    let best: string | undefined
    let shared = 0
    if (candidates) {
      for (const c of candidates) {
        const n = Math.min(c.length, text.length)
        let i = 0
        while (i < n && c.charCodeAt(i) === text.charCodeAt(i)) i++
        if (i > shared) {
          best = c
          shared = i
        }
      }
    }
    // Spliced when most of it is shared; otherwise counted whole and kept, so that the next cut
    // of this text (the next edit of the same budget) finds all of it.
    if (
      best !== undefined &&
      shared * 2 >= text.length &&
      shared - SPLICE_MARGIN > 2 * this.spacing
    )
      return this.spliceAt(best, shared, text)
    if (candidates === undefined) {
      // A start seen for the first time (most texts, counted once): only its hash is kept.
      this.bases.set(key, null)
      if (this.bases.size > MAX_STARTS) this.clearTables()
      return this.countFrom(text, 0)
    }
    // A start seen before: kept, by its start, as a base for later texts; its checkpoints are
    // made if a later text is spliced onto it.
    this.hold(text.length)
    const list = this.bases.get(key)
    if (list) {
      list.unshift(text)
      if (list.length > CANDIDATES) list.pop()
    } else this.bases.set(key, [text])
    return this.countFrom(text, 0)
  }

  private clearTables(): void {
    this.bases.clear()
    this.prefixes.clear()
    this.held = 0
  }

  /** Characters held by the tables (bases, indexed texts); cleared past MAX_HELD_CHARS. */
  private held = 0

  private hold(chars: number): void {
    this.held += chars
    if (this.held <= MAX_HELD_CHARS) return
    this.clearTables()
    this.held = chars
  }

  /** countSplice once `text` is known to agree with `base` on its first `cut` characters. */
  private spliceAt(base: string, cut: number, text: string): number {
    const upTo = cut - SPLICE_MARGIN
    if (upTo <= this.spacing) return this.countFrom(text, 0)
    const { tokens, at } = this.checkpointBefore(base, upTo)
    return tokens + this.countFrom(text, at)
  }

  /** The last checkpoint of `base` at or before `upTo` and the tokens of `base` before it. */
  private checkpointBefore(base: string, upTo: number): { tokens: number; at: number } {
    const index = this.indexOf(base)
    this.extend(base, index, upTo)
    // Checkpoints are in increasing order.
    const at = index.at
    let lo = 0
    let hi = at.length - 1
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1
      if ((at[mid] as number) <= upTo) lo = mid
      else hi = mid - 1
    }
    return { tokens: index.tokens[lo] as number, at: at[lo] as number }
  }

  private indexOf(base: string): PrefixIndex {
    let index = this.prefixes.get(base)
    if (!index) {
      this.hold(base.length)
      index = { at: [0], tokens: [0], pos: 0, total: 0, last: 0 }
      this.prefixes.set(base, index)
    }
    return index
  }

  /** Split `base` on from where its index stopped until past `upTo`, noting checkpoints. */
  private extend(base: string, index: PrefixIndex, upTo: number): void {
    const pieces = this.pieces
    let { pos, total, last } = index
    while (pos <= upTo && pos < base.length) {
      const end = pieces.nextPiece(base, pos)
      if (end === -1) {
        pos = base.length
        break
      }
      total += pieces.pieceTokens
      pos = end
      // A boundary after a non-whitespace ASCII character: no piece before it reads past it by
      // more than the margin. (Non-ASCII ends are skipped: \s has non-ASCII members.)
      if (pos - last >= this.spacing && pos < base.length && !endsInSpace(base, pos)) {
        index.at.push(pos)
        index.tokens.push(total)
        last = pos
      }
    }
    index.pos = pos
    index.total = total
    index.last = last
  }
}
