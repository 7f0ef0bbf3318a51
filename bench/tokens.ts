import { Tiktoken } from 'js-tiktoken/lite'
import o200k from 'js-tiktoken/ranks/o200k_base'
import { BpeCounter } from '../src/engine/tokens/bpe.ts'
import { base64Text, codeText, jsonText, minifiedText, proseText, toMessages } from './texts.ts'
import { mbps, once, round, time } from './timing.ts'

export interface CategoryResult {
  readonly category: string
  readonly bytes: number
  readonly oursColdMBps: number
  readonly oursWarmMBps: number
  readonly oursWarmRangeMBps: readonly [number, number]
  readonly jsTiktokenMBps: number
  readonly tokens: number
  readonly equal: boolean
}

/**
 * Exact counting speed, ours vs raw js-tiktoken `encode`, on the same messages. Cold = a fresh
 * counter (empty memo); warm = median of 3 further passes. js-tiktoken runs once per category
 * (it takes ~1 s per MB).
 */
export async function benchTokens(bytesPerCategory = 1_000_000): Promise<{
  categories: CategoryResult[]
  typicalMix: { oursColdMBps: number; oursWarmMBps: number; jsTiktokenMBps: number }
  rankBuildMs: number
}> {
  const rankBuildMs = once(() => BpeCounter.fromRankData(o200k))
  const reference = new Tiktoken(o200k)
  const sources: [string, string][] = [
    ['code', codeText(bytesPerCategory)],
    ['json', jsonText(bytesPerCategory)],
    ['prose', proseText(bytesPerCategory)],
    ['minified', await minifiedText(bytesPerCategory)],
    ['base64', base64Text(bytesPerCategory)],
  ]
  // Warm the JIT on unrelated text with a throwaway counter, so "cold" below means an empty
  // memo (a file opened for the first time), not unoptimised code in the first category.
  const warmup = BpeCounter.fromRankData(o200k)
  for (const m of toMessages(proseText(200_000) + codeText(200_000), 99)) warmup.count(m)

  const categories: CategoryResult[] = []
  for (const [category, text] of sources) {
    if (text.length === 0) continue
    const messages = toMessages(text)
    const counter = BpeCounter.fromRankData(o200k)
    let tokens = 0
    const coldMs = once(() => {
      for (const m of messages) tokens += counter.count(m)
    })
    const warm = time(() => messages.reduce((n, m) => n + counter.count(m), 0), 3, 0)
    let refTokens = 0
    const refMs = once(() => {
      for (const m of messages) refTokens += reference.encode(m, [], []).length
    })
    categories.push({
      category,
      bytes: text.length,
      oursColdMBps: round(mbps(text.length, coldMs)),
      oursWarmMBps: round(mbps(text.length, warm.medianMs)),
      oursWarmRangeMBps: [
        round(mbps(text.length, warm.maxMs)),
        round(mbps(text.length, warm.minMs)),
      ],
      jsTiktokenMBps: round(mbps(text.length, refMs)),
      tokens,
      equal: tokens === refTokens,
    })
    console.log(
      `  tokens ${category}: ours ${categories.at(-1)?.oursColdMBps} cold / ${categories.at(-1)?.oursWarmMBps} warm MB/s, js-tiktoken ${categories.at(-1)?.jsTiktokenMBps} MB/s, equal=${tokens === refTokens}`,
    )
  }
  const typical = categories.filter((c) => c.category !== 'base64')
  const bytes = typical.reduce((s, c) => s + c.bytes, 0)
  const mix = (key: 'oursColdMBps' | 'oursWarmMBps' | 'jsTiktokenMBps') =>
    round(bytes / typical.reduce((s, c) => s + c.bytes / c[key], 0))
  return {
    categories,
    typicalMix: {
      oursColdMBps: mix('oursColdMBps'),
      oursWarmMBps: mix('oursWarmMBps'),
      jsTiktokenMBps: mix('jsTiktokenMBps'),
    },
    rankBuildMs: round(rankBuildMs, 1),
  }
}

export interface PathologicalResult {
  readonly input: string
  readonly chars: number
  readonly oursMs: number
  readonly jsTiktokenMs: number | null
  readonly tokens: number
}

/** Long single-class runs: super-linear in every library; ours must stay near-linear. */
export function benchPathological(): PathologicalResult[] {
  const counter = BpeCounter.fromRankData(o200k)
  const reference = new Tiktoken(o200k)
  const makers: [string, (n: number) => string][] = [
    ['identical letters', (n) => 'a'.repeat(n)],
    [
      'random a-z',
      (n) =>
        Array.from({ length: n }, (_, i) => String.fromCharCode(97 + ((i * 7919) % 26))).join(''),
    ],
    ['spaces', (n) => ' '.repeat(n)],
    ['newlines', (n) => '\n'.repeat(n)],
    ['CJK', (n) => '中'.repeat(n)],
    ['emoji', (n) => '😀'.repeat(n / 2)],
  ]
  const out: PathologicalResult[] = []
  for (const [name, make] of makers) {
    for (const n of [1_000, 10_000, 100_000, 1_000_000]) {
      const s = make(n)
      let tokens = 0
      const t = time(() => (tokens = counter.count(s)), n >= 1_000_000 ? 1 : 3, 0)
      // js-tiktoken only where it finishes in reasonable time (it is quadratic: 10k letters ≈ 16 s).
      const jsMs =
        n <= 1_000
          ? round(
              once(() => reference.encode(s, [], [])),
              1,
            )
          : null
      out.push({
        input: name,
        chars: s.length,
        oursMs: round(t.medianMs, 1),
        jsTiktokenMs: jsMs,
        tokens,
      })
    }
    console.log(
      `  pathological ${name}: ${out
        .slice(-4)
        .map((r) => `${r.chars}→${r.oursMs}ms`)
        .join(', ')}`,
    )
  }
  return out
}
