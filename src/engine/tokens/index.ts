import { BpeCounter, type RankData } from './bpe.ts'
import type { EncodingName, TextCounter } from './types.ts'

export type { EncodingName, TextCounter, TokenizerId } from './types.ts'
export { BpeCounter } from './bpe.ts'

/** The instant estimate the UI shows before exact counts arrive: ceil(chars / 4). */
export const estimateCounter: TextCounter = {
  id: 'estimate',
  exact: false,
  count: (text: string) => Math.ceil(text.length / 4),
}

/**
 * Wrap a counter with a cache keyed by the content itself: re-running strategies never
 * re-tokenizes unchanged text. Keys are the strings the conversation already holds, so the cache
 * costs little memory; it is cleared when full rather than evicted one by one (cheap and immune to
 * the eviction collapse of LRU-by-deletion maps).
 */
export function cachedCounter(inner: TextCounter, limit = 100_000): TextCounter {
  const cache = new Map<string, number>()
  const splice = inner.countSplice?.bind(inner)
  const spliceTail = inner.countSpliceTail?.bind(inner)
  const remember = (text: string, n: number): number => {
    if (cache.size >= limit) cache.clear()
    cache.set(text, n)
    return n
  }
  return {
    id: inner.id,
    exact: inner.exact,
    count(text: string): number {
      if (text.length < 16) return inner.count(text)
      const hit = cache.get(text)
      return hit !== undefined ? hit : remember(text, inner.count(text))
    },
    // The spliced text is cached like any other, so pricing it later is a lookup.
    countSplice(base: string, cut: number, text: string): number {
      if (text.length < 16) return inner.count(text)
      const hit = cache.get(text)
      if (hit !== undefined) return hit
      return remember(text, splice ? splice(base, cut, text) : inner.count(text))
    },
    // Not cached: the text is never built, so there is no key to keep it under (the caller keeps
    // the price with the part it makes: rememberTextPrice, pricing.ts).
    countSpliceTail(base: string, cut: number, tail: string): number {
      return spliceTail
        ? spliceTail(base, cut, tail)
        : this.count(base.slice(0, Math.min(cut, base.length)) + tail)
    },
  }
}

const loaded = new Map<EncodingName, Promise<TextCounter>>()

/**
 * Load an exact counter. The rank data (≈2 MB) is imported dynamically so bundlers put it in
 * its own chunk, fetched only when exact counts are first needed.
 */
export function loadCounter(encoding: EncodingName): Promise<TextCounter> {
  let pending = loaded.get(encoding)
  if (!pending) {
    pending = importRanks(encoding).then((data) => {
      const bpe = BpeCounter.fromRankData(data)
      return cachedCounter({
        id: encoding,
        exact: true,
        count: (t) => bpe.count(t),
        countSplice: (base, cut, t) => bpe.countSplice(base, cut, t),
        countSpliceTail: (base, cut, tail) => bpe.countSpliceTail(base, cut, tail),
      })
    })
    loaded.set(encoding, pending)
  }
  return pending
}

async function importRanks(encoding: EncodingName): Promise<RankData> {
  switch (encoding) {
    case 'o200k_base':
      return (await import('js-tiktoken/ranks/o200k_base')).default
    case 'cl100k_base':
      return (await import('js-tiktoken/ranks/cl100k_base')).default
  }
}
