/**
 * A replay's plan (plan-index.ts with `changesOnly`) re-decides, when a lookup (the newest full
 * read of a file, its covering reads, its writes) gains a result, only the keys reading it that
 * still have an open result: one no other result can turn into a change is settled. A hot file is
 * read by hundreds of keys over a long session, nearly all settled, and walking them all at every
 * new read of the file made a call's cost grow with the session. This keeps, per lookup, its
 * users with an open result, up to date as each key's count of open results crosses zero.
 */
export class OpenKeys {
  /** Per key: how many of its fresh listed results are open (not settled). */
  private readonly count = new Map<string, number>()
  /** Per set of a lookup's users (the plan structure's own sets): those with an open result. */
  private readonly openUsers = new Map<ReadonlySet<string>, Set<string>>()
  /** Per key: the users sets it is in. */
  private readonly usedBy = new Map<string, Set<ReadonlySet<string>>>()

  /** `key` is one of `users`, a lookup's users (it was just added there). */
  uses(key: string, users: ReadonlySet<string>): void {
    let sets = this.usedBy.get(key)
    if (!sets) this.usedBy.set(key, (sets = new Set()))
    sets.add(users)
    if ((this.count.get(key) ?? 0) > 0) this.openIn(users).add(key)
  }

  /** The open results of `key` went up or down by `by`. */
  add(key: string, by: number): void {
    const was = this.count.get(key) ?? 0
    const now = was + by
    this.count.set(key, now)
    if (was > 0 === now > 0) return
    for (const users of this.usedBy.get(key) ?? NONE)
      if (now > 0) this.openIn(users).add(key)
      else this.openIn(users).delete(key)
  }

  /** The keys among `users` with an open result. */
  openOf(users: ReadonlySet<string>): ReadonlySet<string> | undefined {
    return this.openUsers.get(users)
  }

  private openIn(users: ReadonlySet<string>): Set<string> {
    let open = this.openUsers.get(users)
    if (!open) this.openUsers.set(users, (open = new Set()))
    return open
  }
}

const NONE: ReadonlySet<ReadonlySet<string>> = new Set()
