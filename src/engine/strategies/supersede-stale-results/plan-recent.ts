/**
 * A key's newest fresh results, found from the end of its list: what a replay's plan decides
 * with when it walks only the key's open results (open-keys.ts), so that it has no position of
 * each among all the fresh ones to tell the last `preserveLastN` by.
 */
import type { Occurrence } from './plan.ts'

export class RecentResults {
  /** The last `keep` fresh results of the list (at least one), newest first. */
  private readonly tail: Occurrence[] = []

  /** The newest fresh result of the list `of` was last given. */
  get newest(): Occurrence | undefined {
    return this.tail[0]
  }

  /** Take the last `keep` fresh results of `list` (index-ordered; at least the newest). */
  of(list: readonly Occurrence[], keep: number): this {
    const { tail } = this
    tail.length = 0
    const want = Math.max(keep, 1)
    for (let i = list.length - 1; i >= 0 && tail.length < want; i--) {
      const o = list[i] as Occurrence
      if (o.state === 'fresh') tail.push(o)
    }
    return this
  }

  /**
   * 1 for the newest fresh result, 2 for the one before it, and so on over the results taken;
   * Infinity for an older fresh result (one of the list's, so beyond the last `keep`).
   */
  rank(o: Occurrence): number {
    const { tail } = this
    const oldest = tail[tail.length - 1]
    if (!oldest || o.index < oldest.index) return Infinity
    // Newest first, so indexes descend: the first entry at or below `o.index` is `o` itself.
    let lo = 0
    let hi = tail.length - 1
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if ((tail[mid] as Occurrence).index > o.index) lo = mid + 1
      else hi = mid
    }
    return lo + 1
  }
}
