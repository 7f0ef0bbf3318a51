/** Median-of-n timing with a warm-up, reported with its range (like the perf anchors). */
export interface Timing {
  readonly medianMs: number
  readonly minMs: number
  readonly maxMs: number
  readonly runs: number
}

/** The middle value (the mean of the two middle ones for an even count); 0 for none. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2
}

/**
 * A full collection before a timed section, when the bench runs with `--expose-gc` (`npm run
 * bench` does): no section pays for the garbage an earlier one left (the compaction bench's heap
 * holds about 1 GB by the end of its re-plans, and a marking cycle begun by one section landed in
 * whichever came next). Collections a section causes itself still count.
 */
export function collectGarbage(): void {
  ;(globalThis as { gc?: () => void }).gc?.()
}

/** The timing of these samples (each run's ms; the upper middle one for an even count). */
export function timingOf(samples: readonly number[]): Timing {
  const sorted = [...samples].sort((a, b) => a - b)
  return {
    medianMs: sorted[Math.floor(sorted.length / 2)] as number,
    minMs: sorted[0] as number,
    maxMs: sorted[sorted.length - 1] as number,
    runs: sorted.length,
  }
}

export function time(fn: () => unknown, runs = 5, warmup = 1): Timing {
  collectGarbage()
  for (let i = 0; i < warmup; i++) fn()
  const samples: number[] = []
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now()
    fn()
    samples.push(performance.now() - t0)
  }
  return timingOf(samples)
}

export function once(fn: () => unknown): number {
  const t0 = performance.now()
  fn()
  return performance.now() - t0
}

export const mbps = (bytes: number, ms: number) => bytes / 1e6 / (ms / 1000)
export const round = (n: number, digits = 2) => Number(n.toFixed(digits))

/** `time` for async work; also hands back the last run's result. */
export async function timeAsync<T>(
  fn: () => Promise<T>,
  runs = 5,
  warmup = 1,
): Promise<{ timing: Timing; result: T }> {
  let result: T | undefined
  collectGarbage()
  for (let i = 0; i < warmup; i++) result = await fn()
  const samples: number[] = []
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now()
    result = await fn()
    samples.push(performance.now() - t0)
  }
  return { timing: timingOf(samples), result: result as T }
}

/** A timing with every figure rounded, for the results file. */
export const roundTiming = (t: Timing, digits = 2): Timing => ({
  medianMs: round(t.medianMs, digits),
  minMs: round(t.minMs, digits),
  maxMs: round(t.maxMs, digits),
  runs: t.runs,
})

/** "median (min–max, n)" */
export const showTiming = (t: Timing): string =>
  `${t.medianMs} ms (${t.minMs}–${t.maxMs}, n=${t.runs})`
