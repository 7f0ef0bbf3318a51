/**
 * One part's outcomes for the last few thresholds, by number, the least recently used dropped
 * first. Two short arrays rather than a Map per part: thousands of parts each keep one, and an
 * edit of a threshold and its undo alternate between a few numbers.
 */
// Threshold values kept per part: an edit and its undo alternate between a few, and the rest
// piled up (one replacement per part per value ever typed).
const MAX_VALUES = 4

export class ByThreshold<T> {
  private readonly thresholds: number[] = []
  private readonly outcomes: T[] = []

  /** The outcome at `threshold`, made the most recently used. */
  get(threshold: number): T | undefined {
    const i = this.thresholds.indexOf(threshold)
    if (i === -1) return undefined
    const hit = this.outcomes[i] as T
    if (i !== this.thresholds.length - 1) {
      this.thresholds.splice(i, 1)
      this.outcomes.splice(i, 1)
      this.thresholds.push(threshold)
      this.outcomes.push(hit)
    }
    return hit
  }

  /** Keep `outcome` at `threshold` as the most recently used. */
  set(threshold: number, outcome: T): T {
    if (this.thresholds.length >= MAX_VALUES) {
      this.thresholds.shift()
      this.outcomes.shift()
    }
    this.thresholds.push(threshold)
    this.outcomes.push(outcome)
    return outcome
  }

  /** Forget every outcome (what they depend on besides the threshold changed). */
  clear(): void {
    this.thresholds.length = 0
    this.outcomes.length = 0
  }
}
