/**
 * Exact BPE token counting on js-tiktoken's rank data and split pattern, built for speed.
 *
 * js-tiktoken's own `encode` is exact but slow (~1.3 MB/s) and quadratic on long pieces: its merge
 * loop rescans every pair after each merge and joins byte arrays into string keys. We keep its
 * semantics exactly — same regex pieces, same "merge the leftmost lowest-ranked pair" rule, same
 * whole-piece shortcut — and change only the mechanics:
 *  - ranks live in a `Map` keyed by a one-byte string (each char is one UTF-8 byte);
 *  - a per-piece memo (piece → count) that is cleared when full, so high-entropy text (base64,
 *    hashes) cannot collapse it the way LRU-by-deletion caches do;
 *  - short pieces merge with the array scan tiktoken's Rust core uses; long pieces use a binary
 *    heap over a linked list of parts, O(n log n), so a 100k-letter run takes milliseconds.
 * Special-token strings (`<|endoftext|>`) are counted as ordinary text, like
 * `encode(text, [], [])` does.
 */

import { MinHeap } from './min-heap.ts'
import { scannerFor, type Scanner } from './pretokenize.ts'
import { Splicer } from './splice.ts'

export interface BpeOptions {
  readonly smallPiece?: number
  readonly spliceSpacing?: number
  readonly longText?: number
  readonly regexOnly?: boolean
}

/** The shape of js-tiktoken's rank modules (`js-tiktoken/ranks/o200k_base`). */
export interface RankData {
  readonly pat_str: string
  readonly special_tokens: Readonly<Record<string, number>>
  readonly bpe_ranks: string
}

/** Pieces up to this many bytes use the array scan; above it, the heap merge. */
const SMALL_PIECE = 48
const MEMO_LIMIT = 200_000
/** Pieces longer than this are not memoised (they rarely repeat and would pin memory). */
const MEMO_MAX_PIECE = 256
const NO_RANK = 0x7fffffff
/** Texts at least this long are counted through the Splicer (splice.ts), which may resume them. */
const LONG_TEXT = 1024

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'
const B64_INDEX = new Int16Array(128).fill(-1)
for (let i = 0; i < B64.length; i++) B64_INDEX[B64.charCodeAt(i)] = i

/** base64 → one-byte string (each char code is a byte). Small and allocation-light. */
function base64ToByteString(token: string): string {
  let out = ''
  let buffer = 0
  let bits = 0
  for (let i = 0; i < token.length; i++) {
    const v = B64_INDEX[token.charCodeAt(i)] ?? -1
    if (v < 0) continue // '=' padding
    buffer = (buffer << 6) | v
    bits += 6
    if (bits >= 8) {
      bits -= 8
      out += String.fromCharCode((buffer >> bits) & 0xff)
    }
  }
  return out
}

/** Parse js-tiktoken's compressed rank list ("! <offset> tok tok …" lines) into a Map. */
export function buildRankMap(bpeRanks: string): Map<string, number> {
  const ranks = new Map<string, number>()
  for (const line of bpeRanks.split('\n')) {
    if (line === '') continue
    const fields = line.split(' ')
    const offset = Number.parseInt(fields[1] ?? '', 10)
    for (let i = 2; i < fields.length; i++) {
      ranks.set(base64ToByteString(fields[i] as string), offset + i - 2)
    }
  }
  return ranks
}

/**
 * UTF-8 bytes of `piece` as a one-byte string (each char code is one byte). Lone surrogates
 * become U+FFFD (EF BF BD), exactly as `TextEncoder` — and so js-tiktoken — encodes them.
 */
function toByteString(piece: string): string {
  let i = 0
  while (i < piece.length && piece.charCodeAt(i) < 0x80) i++
  if (i === piece.length) return piece // ASCII: the string already is its bytes
  let out = piece.slice(0, i)
  for (; i < piece.length; i++) {
    let c = piece.charCodeAt(i)
    if (c < 0x80) {
      out += piece[i]
      continue
    }
    if (c < 0x800) {
      out += String.fromCharCode(0xc0 | (c >> 6), 0x80 | (c & 0x3f))
      continue
    }
    if (c >= 0xd800 && c <= 0xdfff) {
      const d = i + 1 < piece.length ? piece.charCodeAt(i + 1) : 0
      if (c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff) {
        const cp = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00)
        out += String.fromCharCode(
          0xf0 | (cp >> 18),
          0x80 | ((cp >> 12) & 0x3f),
          0x80 | ((cp >> 6) & 0x3f),
          0x80 | (cp & 0x3f),
        )
        i++
        continue
      }
      c = 0xfffd
    }
    out += String.fromCharCode(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f))
  }
  return out
}

export class BpeCounter {
  private readonly pattern: RegExp
  private readonly memo = new Map<string, number>()

  private readonly ranks: ReadonlyMap<string, number>
  private readonly smallPiece: number
  private readonly splicer: Splicer
  private readonly longText: number
  private readonly scan: Scanner | null

  /**
   * @param options.smallPiece byte length above which the heap merge is used (tests lower it to
   *   cross-check both merge paths against each other).
   * @param options.spliceSpacing least distance between countSplice checkpoints (tests set 1 to
   *   resume at every boundary it may).
   * @param options.longText length from which count() goes through the Splicer (tests lower it).
   * @param options.regexOnly split with the regex alone (tests compare it with the ASCII scanner).
   */
  constructor(ranks: ReadonlyMap<string, number>, patStr: string, options: BpeOptions = {}) {
    this.ranks = ranks
    this.pattern = new RegExp(patStr, 'gu')
    this.smallPiece = options.smallPiece ?? SMALL_PIECE
    this.splicer = new Splicer(this, options.spliceSpacing)
    this.longText = options.longText ?? LONG_TEXT
    this.scan = options.regexOnly ? null : scannerFor(patStr)
  }

  static fromRankData(data: RankData, options?: BpeOptions): BpeCounter {
    return new BpeCounter(buildRankMap(data.bpe_ranks), data.pat_str, options)
  }

  /**
   * Number of tokens js-tiktoken's `encode(text, [], []).length` would return. A long text that
   * starts like one counted before (a new cut of it, made by a re-plan's new budget) is counted
   * from that one's checkpoints and its own end (splice.ts); otherwise whole.
   */
  count(text: string): number {
    return text.length >= this.longText
      ? this.splicer.countLong(text)
      : this.splicer.countFrom(text, 0)
  }

  /**
   * Exactly `count(text)` when `text` starts with `base`'s first `cut` characters, counting only
   * what follows a checkpoint near the cut (Splicer.countSplice).
   */
  countSplice(base: string, cut: number, text: string): number {
    return this.splicer.countSplice(base, cut, text)
  }

  /** Exactly `count(base.slice(0, cut) + tail)`, without building it (Splicer.countSpliceTail). */
  countSpliceTail(base: string, cut: number, tail: string): number {
    return this.splicer.countSpliceTail(base, cut, tail)
  }

  /** Tokens of the piece the last {@link nextPiece} found (a field: no object per piece). */
  pieceTokens = 0

  /**
   * The end of the piece at `i` (its tokens in `pieceTokens`), or -1 when nothing more matches.
   * ASCII pieces are found by the scanner; anything it cannot decide goes to the regex.
   */
  nextPiece(text: string, i: number): number {
    const n = text.length
    let start = i
    let end = this.scan ? this.scan(text, i, n) : -1
    if (end === -1) {
      const re = this.pattern
      re.lastIndex = i
      const m = re.exec(text)
      if (m === null) return -1
      start = m.index // the patterns match every character, so this is i in practice
      end = start + m[0].length
      if (end === start) {
        this.pieceTokens = 0
        return start + 1
      }
    }
    this.pieceTokens = this.countCached(text.slice(start, end))
    return end
  }

  private countCached(piece: string): number {
    const memo = this.memo
    const known = memo.get(piece)
    if (known !== undefined) return known
    const n = this.countPiece(toByteString(piece))
    if (piece.length <= MEMO_MAX_PIECE) {
      if (memo.size >= MEMO_LIMIT) memo.clear()
      memo.set(piece, n)
    }
    return n
  }

  /** Tokens of one regex piece given as a byte string. */
  private countPiece(bytes: string): number {
    if (bytes.length <= 1) return bytes.length
    if (this.ranks.has(bytes)) return 1
    return bytes.length <= this.smallPiece ? this.mergeSmall(bytes) : this.mergeLarge(bytes)
  }

  private rankOf(bytes: string, start: number, end: number): number {
    return this.ranks.get(bytes.slice(start, end)) ?? NO_RANK
  }

  /** Scratch buffers for `mergeSmall`, reused across calls (counting is single-threaded). */
  private readonly starts = new Int32Array(SMALL_PIECE + 2)
  private readonly pairRanks = new Int32Array(SMALL_PIECE + 2)

  /** tiktoken's array merge: fastest for the short pieces that make up almost all text. */
  private mergeSmall(bytes: string): number {
    const n = bytes.length
    // A 2-byte piece that is not itself a token stays 2 tokens (its only pair is the piece).
    if (n === 2) return 2
    // starts[i] = start of part i (with a sentinel at the end); rank[i] = rank of part i + part i+1.
    const starts = n <= SMALL_PIECE ? this.starts : new Int32Array(n + 2)
    const rank = n <= SMALL_PIECE ? this.pairRanks : new Int32Array(n + 2)
    for (let i = 0; i <= n; i++) starts[i] = i
    for (let i = 0; i < n - 1; i++) rank[i] = this.rankOf(bytes, i, i + 2)
    rank[n - 1] = NO_RANK
    rank[n] = NO_RANK
    let len = n + 1 // number of boundaries
    for (;;) {
      let min = NO_RANK
      let at = -1
      for (let i = 0; i < len - 2; i++) {
        const r = rank[i] as number
        if (r < min) {
          min = r
          at = i
        }
      }
      if (at === -1) break
      // Merge part `at` with part `at + 1`: drop boundary at+1, then refresh the two pair ranks.
      starts.copyWithin(at + 1, at + 2, len)
      rank.copyWithin(at + 1, at + 2, len)
      len--
      rank[at] =
        at + 2 < len ? this.rankOf(bytes, starts[at] as number, starts[at + 2] as number) : NO_RANK
      if (at > 0) {
        rank[at - 1] = this.rankOf(bytes, starts[at - 1] as number, starts[at + 1] as number)
      }
    }
    return len - 1
  }

  /**
   * The same merge order with a min-heap keyed (rank, position) over a doubly linked list of
   * parts: O(n log n) instead of O(n²). Stale heap entries are skipped by checking that the pair
   * still starts at a live part and still has the rank it was pushed with (a rank names one exact
   * byte string, so equal rank at the same start means the same pair).
   */
  private mergeLarge(bytes: string): number {
    const n = bytes.length
    const next = new Int32Array(n + 1)
    const prev = new Int32Array(n + 1)
    const alive = new Uint8Array(n + 1)
    const pairRank = new Int32Array(n + 1)
    for (let i = 0; i <= n; i++) {
      next[i] = i + 1
      prev[i] = i - 1
      alive[i] = 1
    }
    const heap = new MinHeap(n)
    const scale = heap.scale
    for (let i = 0; i < n - 1; i++) {
      const r = this.rankOf(bytes, i, i + 2)
      pairRank[i] = r
      if (r !== NO_RANK) heap.push(r * scale + i)
    }
    pairRank[n - 1] = NO_RANK
    let parts = n
    while (heap.size > 0) {
      const key = heap.pop()
      const r = Math.floor(key / scale)
      const i = key - r * scale
      if (!alive[i] || pairRank[i] !== r) continue
      // Merge part i with its successor j.
      const j = next[i] as number
      const k = next[j] as number
      alive[j] = 0
      next[i] = k
      if (k <= n) prev[k] = i
      parts--
      // The merged part pairs with its new successor…
      const after = k < n ? (next[k] as number) : -1
      const ri = after !== -1 ? this.rankOf(bytes, i, after) : NO_RANK
      pairRank[i] = ri
      if (ri !== NO_RANK) heap.push(ri * scale + i)
      // …and its predecessor pairs with the merged part.
      const p = prev[i] as number
      if (p >= 0) {
        const rp = this.rankOf(bytes, p, k)
        pairRank[p] = rp
        if (rp !== NO_RANK) heap.push(rp * scale + p)
      }
    }
    return parts
  }
}
