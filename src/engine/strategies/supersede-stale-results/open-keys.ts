/**
 * A replay's plan (plan-index.ts with `changesOnly`) decides only results whose decision can be
 * a change: it reads the changes alone, so the outcome of a result no decision can change may lag.
 * This keeps, per key, those open results, and per lookup (the newest full read of a file, its
 * covering reads, its writes) its users with one, up to date as results come, go and are decided.
 *
 * A result is closed when no decision of it can be a stub or drop that is not one now:
 *  - settled (SETTLED): stale but under the size floor, whatever else holds;
 *  - denied whichever way it goes stale (by its key's newer results it is judged by the policy
 *    for the key's first result; by a covering read, full read or write, by its own), and not a
 *    stub or drop now: its next outcome is another refusal, or kept.
 * A hot file is read by hundreds of keys over a long session, nearly all closed: re-deciding them
 * all at every new read of it, and walking every result of a key to decide it (the bench's
 * 5,000-call replay walked 48,205 listed results and skipped 38,111 closed ones one by one), made a
 * call's cost grow with the session.
 */
import { policyVerdict } from './categories.ts'
import { after, byIndex } from './plan-lists.ts'
import type { Occurrence, Outcome, PlanParams } from './plan.ts'

/**
 * An outcome that no other result can turn into a change: stale but under the size floor. Its
 * size and the floor are fixed, so stale again it is under the floor again (or denied), and not
 * stale it is kept. Not `denied`: one stale by a newer result of its key is judged by the policy
 * for the key's first result, and a later covering read judges it by its own.
 */
export const SETTLED: Outcome['kind'] = 'below_min'

export class OpenKeys {
  /** Per key: its open results (fresh and listed), in index order. */
  private readonly results = new Map<string, Occurrence[]>()
  /** Per key: how many fresh results it lists, open or closed (the positions `decide` counts). */
  private readonly freshCount = new Map<string, number>()
  /** Per set of a lookup's users (the plan structure's own sets): those with an open result. */
  private readonly openUsers = new Map<ReadonlySet<string>, Set<string>>()
  /** Per key: the users sets it is in. */
  private readonly usedBy = new Map<string, Set<ReadonlySet<string>>>()
  /** The plan's params, outcomes by index and lists by key (read, never changed here). */
  private readonly p: PlanParams
  private readonly out: readonly Outcome[]
  private readonly byKey: ReadonlyMap<string, readonly Occurrence[]>

  constructor(
    p: PlanParams,
    out: readonly Outcome[],
    byKey: ReadonlyMap<string, readonly Occurrence[]>,
  ) {
    this.p = p
    this.out = out
    this.byKey = byKey
  }

  /** `key` is one of `users`, a lookup's users (it was just added there). */
  uses(key: string, users: ReadonlySet<string>): void {
    let sets = this.usedBy.get(key)
    if (!sets) this.usedBy.set(key, (sets = new Set()))
    sets.add(users)
    if (this.results.has(key)) this.openIn(users).add(key)
  }

  /** How many fresh results `key` lists. */
  freshOf(key: string): number {
    return this.freshCount.get(key) ?? 0
  }

  /** The open results of `key`, in index order (the index's own array: copy it to keep it). */
  openResults(key: string): readonly Occurrence[] {
    return this.results.get(key) ?? NO_RESULTS
  }

  /** The keys among `users` with an open result. */
  openOf(users: ReadonlySet<string>): ReadonlySet<string> | undefined {
    return this.openUsers.get(users)
  }

  /**
   * `o` was put on (`by` 1) or taken off (-1) its key's list; `first` is the list's first result
   * before that. A fresh one is counted, and open or closed by its outcome now; a new first result
   * judged otherwise by the policy opens or closes the key's results stale by their newer ones.
   */
  listed(key: string, o: Occurrence, by: 1 | -1, first: Occurrence | undefined): void {
    if (o.state === 'fresh') {
      const now = (this.freshCount.get(key) ?? 0) + by
      if (now === 0) this.freshCount.delete(key)
      else this.freshCount.set(key, now)
      if (by < 0) this.close(key, o)
      else if (this.isOpen(key, o, this.out[o.index]?.kind)) this.open(key, o)
    }
    const list = this.byKey.get(key)
    const now = list?.[0]
    if (now !== first && list && first && now && this.allowed(first) !== this.allowed(now))
      this.reopenAll(key, list)
  }

  /** The outcome of `o`, a fresh result of `key`, went from `was` to `now`. */
  decided(
    key: string,
    o: Occurrence,
    was: Outcome['kind'] | undefined,
    now: Outcome['kind'],
  ): void {
    // Most decisions keep the kind, or move between kept kinds (newest, single, keep_recent...).
    if (was === now || (was !== undefined && openness(was) === openness(now))) return
    const before = this.isOpen(key, o, was)
    if (before !== this.isOpen(key, o, now))
      if (before) this.close(key, o)
      else this.open(key, o)
  }

  /** Can a decision of `o`, a fresh result of `key` whose outcome is `kind`, be a change? */
  private isOpen(key: string, o: Occurrence, kind: Outcome['kind'] | undefined): boolean {
    if (kind === SETTLED) return false
    if (kind === 'stub' || kind === 'drop' || this.allowed(o)) return true
    const first = this.byKey.get(key)?.[0]
    return first === undefined || this.allowed(first)
  }

  private allowed(o: Occurrence): boolean {
    const { p } = this
    return policyVerdict(o.tool, o.category, p, p.faithful).allowed
  }

  /** Every fresh result of `key` open or closed again (its first result is judged otherwise). */
  private reopenAll(key: string, list: readonly Occurrence[]): void {
    for (const o of list)
      if (o.state !== 'fresh') continue
      else if (this.isOpen(key, o, this.out[o.index]?.kind)) this.open(key, o)
      else this.close(key, o)
  }

  // One search finds whether `o` is listed and where it goes (indexes are unique: the first entry
  // at its index is `o` when it is there).
  private open(key: string, o: Occurrence): void {
    const list = this.results.get(key)
    if (!list) {
      this.results.set(key, [o])
      this.crossed(key, true)
      return
    }
    const at = after(list, o.index - 1, byIndex)
    if (list[at] !== o) list.splice(at, 0, o)
  }

  private close(key: string, o: Occurrence): void {
    const list = this.results.get(key)
    const at = list ? after(list, o.index - 1, byIndex) : -1
    if (!list || list[at] !== o) return
    list.splice(at, 1)
    if (list.length > 0) return
    this.results.delete(key)
    this.crossed(key, false)
  }

  /** `key` now has an open result (`open`), or has none any more. */
  private crossed(key: string, open: boolean): void {
    for (const users of this.usedBy.get(key) ?? NONE)
      if (open) this.openIn(users).add(key)
      else this.openIn(users).delete(key)
  }

  private openIn(users: ReadonlySet<string>): Set<string> {
    let open = this.openUsers.get(users)
    if (!open) this.openUsers.set(users, (open = new Set()))
    return open
  }
}

/** What openness an outcome kind leaves to the policy: settled, a stub or drop, or the policy's. */
const openness = (kind: Outcome['kind']): 0 | 1 | 2 =>
  kind === SETTLED ? 0 : kind === 'stub' || kind === 'drop' ? 1 : 2

const NONE: ReadonlySet<ReadonlySet<string>> = new Set()
const NO_RESULTS: readonly Occurrence[] = []
