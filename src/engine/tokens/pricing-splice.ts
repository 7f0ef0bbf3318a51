/**
 * Pricing a text made as a cut of a counted one plus an end (a truncated result and its notice, a
 * capped digest and its marker) from what is known of the base: `priceText`'s figure, with the
 * BPE count spliced onto the base's (splice.ts) and the redaction and base64 checks answered from
 * a scan kept per base.
 */
import {
  BASE64_RUN,
  longTextCache,
  priceText,
  REDACTION_MARK,
  remember,
  type PricedText,
} from './pricing.ts'
import type { TextCounter } from './types.ts'

/**
 * `priceText(text, counter)`, for a text that is `base` cut at `cut` with something else after it
 * (a truncated result plus its notice, a capped digest plus its marker): the same figure, but the
 * BPE count reuses what is known of `base` (`countSplice`) and the base64 scan is answered from a
 * bound kept per base, so an edit of a cap or a budget re-counts only the end of each cut text.
 * The price is left in the caches `priceText` reads, so pricing the part later is a lookup.
 */
export function priceSplice(
  text: string,
  base: string,
  cut: number,
  counter: TextCounter,
): PricedText {
  if (!counter.countSplice) return priceText(text, counter)
  const known = scanOf(base, cut)
  // A redaction mark in the base's start, or one the cut end might complete: the general path.
  if (known.mark !== -1 && known.mark < cut) return priceText(text, counter)
  const from = Math.max(0, cut - REDACTION_MARK.length)
  if (text.indexOf(REDACTION_MARK, from) !== -1) return priceText(text, counter)
  if (text.length < BASE64_RUN) return { tokens: counter.countSplice(base, cut, text) }
  const cache = longTextCache(counter)
  const hit = cache.get(text)
  if (hit) return hit
  // Any run of base64 characters in `text` lies in base's first `cut` characters, in what
  // follows the cut, or across the cut: no longer than base's longest run so far plus that end.
  // Under BASE64_RUN, `text` has no run to price by rule, as `priceLongText` would find.
  if (known.longest + (text.length - cut) >= BASE64_RUN) return priceText(text, counter)
  return remember(cache, text, { tokens: counter.countSplice(base, cut, text) })
}

/**
 * `priceText(base.slice(0, cut) + tail, counter)` without building, copying, scanning or hashing
 * that text — the same figure, by the same rules as {@link priceSplice}: the redaction and base64
 * checks read the base's per-base scan and the few characters around the cut. Nothing is cached
 * under the text (it has no key until built): the caller keeps the price with the part it makes
 * ({@link rememberTextPrice}). An edit of a digest cap made every capped digest (4,096
 * characters each, thousands per re-plan) be flattened, hashed, compared and scanned again.
 */
export function priceSpliceTail(
  base: string,
  cut: number,
  tail: string,
  counter: TextCounter,
): PricedText {
  const end = Math.min(cut, base.length)
  if (!counter.countSpliceTail) return priceText(base.slice(0, end) + tail, counter)
  const known = scanOf(base, end)
  if (known.mark !== -1 && known.mark < end) return priceText(base.slice(0, end) + tail, counter)
  // A mark that starts in the last characters before the cut, or in the tail.
  const near = base.slice(Math.max(0, end - REDACTION_MARK.length), end) + tail
  if (near.includes(REDACTION_MARK)) return priceText(base.slice(0, end) + tail, counter)
  if (end + tail.length >= BASE64_RUN && known.longest + tail.length >= BASE64_RUN)
    return priceText(base.slice(0, end) + tail, counter)
  return { tokens: counter.countSpliceTail(base, end, tail) }
}

/** What priceSplice knows of a base: its first redaction mark and its base64-alphabet runs. */
interface BaseScan {
  /** Index of the first REDACTION_MARK, or -1. */
  readonly mark: number
  /** Scanned up to `pos`, with the current run's length and the longest run seen. */
  pos: number
  run: number
  longest: number
}

const baseScans = new Map<string, BaseScan>()
let scannedChars = 0

/**
 * The scan of `base` covering its first `cut` characters: the longest run of base64-alphabet
 * characters (as `base64Runs` reads them) in a scanned stretch that covers them — a bound for the
 * runs in those characters. Scanned on demand and resumed, once per base however often it is cut.
 */
function scanOf(base: string, cut: number): BaseScan {
  let scan = baseScans.get(base)
  if (!scan) {
    // Bounded by the characters of the bases it keeps alive, like the splice tables (splice.ts).
    scannedChars += base.length
    if (baseScans.size >= 20_000 || scannedChars > 4_000_000) {
      baseScans.clear()
      scannedChars = base.length
    }
    scan = { mark: base.indexOf(REDACTION_MARK), pos: 0, run: 0, longest: 0 }
    baseScans.set(base, scan)
  }
  let { pos, run, longest } = scan
  if (pos >= cut) return scan
  for (; pos < cut && pos < base.length; pos++) {
    const c = base.charCodeAt(pos)
    const inRun =
      (c >= 65 && c <= 90) ||
      (c >= 97 && c <= 122) ||
      (c >= 48 && c <= 57) ||
      c === 43 ||
      c === 47 ||
      c === 61 ||
      c === 45 ||
      c === 95
    run = inRun ? run + 1 : 0
    if (run > longest) longest = run
  }
  scan.pos = pos
  scan.run = run
  scan.longest = longest
  return scan
}
