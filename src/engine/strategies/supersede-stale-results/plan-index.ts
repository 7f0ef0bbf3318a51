/**
 * The planning core's state (see `plan.ts` for the rules). Outcomes are independent per resource
 * key: a key's results are decided from its own list plus three lookups — the newest full read
 * of the file, later covering reads of the file, later writes to it. The index keeps those
 * structures and, per lookup, which keys read it, so appending a result re-decides only the keys
 * it can affect. Replay appends the results revealed since the previous model call (nothing
 * before them changed) instead of re-planning every result of the conversation at every call; a
 * full plan is the same code adding every result, so both give the same outcomes.
 */
import { policyVerdict } from './categories.ts'
import type { Occurrence, Outcome, PlanParams, StaleCause } from './plan.ts'
import { OpenKeys } from './open-keys.ts'
import { RecentResults } from './plan-recent.ts'
import { addTo, byIndex, insert, itself, removeFrom } from './plan-lists.ts'
import {
  coverMayChange,
  coveringRead,
  laterWrite,
  writeBefore,
  writeMayChange,
} from './plan-lookups.ts'
import { emptyStructure, type PlanStructure } from './plan-structure.ts'

export class PlanIndex {
  /** Outcome of every occurrence added, by index. */
  readonly out: Outcome[] = []
  /** Indexes whose outcome is `stub` or `drop`: what to act on, without a scan of every result. */
  private readonly removing = new Set<number>()
  /** `removing`, sorted: made when asked, dropped when the set changes. */
  private staleSorted: number[] | null = null
  /**
   * Per key: its open results, those a decision can change (open-keys.ts). Every key that ever
   * read a file uses its lookups, and a replay re-decided them all at each new read or write of
   * the file, and at each of its reads stubbed (touches grew 12x for 4.3x the calls). With
   * `changesOnly`, a lookup that changed skips keys with no open result (see `touch`), and a key
   * decided walks its open results alone; a key's own results coming or going re-decide it as
   * before; whole plans decide every result of every key (null then).
   */
  private readonly open: OpenKeys | null
  /** Lists and lookups: this plan's own, or borrowed (then never changed: see `borrowing`). */
  private readonly s: PlanStructure

  private readonly p: PlanParams
  /** The fresh results of the key `decide` is deciding (one array for every decision). */
  private readonly freshScratch: Occurrence[] = []
  /** The newest fresh results of the key `decide` is deciding, in a replay (see `open`). */
  private readonly recent = new RecentResults()
  /** Only the changes (`stale()` and their outcomes) are read: see `open`. */
  private readonly changesOnly: boolean

  /** `changesOnly`: the caller reads the changes alone (a replay): see `open`. */
  constructor(p: PlanParams, structure: PlanStructure = emptyStructure(), changesOnly = false) {
    this.p = p
    this.s = structure
    this.changesOnly = changesOnly
    this.open = changesOnly ? new OpenKeys(p, this.out, structure.byKey) : null
  }

  /**
   * The plan of `occurrences` under `p`, deciding over the structure a plan of the very same
   * occurrences built under the same mode and `writesMakeStale`: no list is built again. The
   * lender's structure is shared, so neither plan may be changed afterwards (no append, replace
   * or truncate: replan.ts plans a shared plan's successor afresh).
   */
  static borrowing(p: PlanParams, structure: PlanStructure): PlanIndex {
    const index = new PlanIndex(p, structure)
    // The lender's occurrences are those of the same records (the structure is per mode).
    const { occ } = structure
    const out = index.out
    for (let i = 0; i < occ.length; i++) out.push(firstOutcome(occ[i] as Occurrence))
    for (const key of structure.byKey.keys()) index.decide(key)
    return index
  }

  /** The lists and lookups of this plan (to lend to `borrowing`). */
  get structure(): PlanStructure {
    return this.s
  }

  /** Indexes of the results to stub or drop, ascending (a shared array: copy it to keep it). */
  stale(): readonly number[] {
    // Sorted once per change of the set: a plan shared by re-plans is asked again and again.
    this.staleSorted ??= [...this.removing].sort((a, b) => a - b)
    return this.staleSorted
  }

  /**
   * Take an index out of the stale set. The sorted list is made again only when the set changed:
   * replay re-decides keys at every call, mostly to the same outcomes.
   */
  private unstale(index: number): void {
    if (this.removing.delete(index)) this.staleSorted = null
  }

  /** Add every occurrence (a whole conversation), then decide every key once. */
  addAll(occurrences: readonly Occurrence[]): void {
    for (const o of occurrences) this.add(o, null)
    for (const key of this.s.byKey.keys()) this.decide(key)
  }

  /** Add occurrences that come after all others and re-decide the keys they can affect. */
  append(occurrences: readonly Occurrence[]): void {
    const dirty = new Set<string>()
    for (const o of occurrences) this.add(o, dirty)
    // A key a lookup names may have lost its last result to `replace`.
    for (const key of dirty) if (this.s.byKey.has(key)) this.decide(key)
  }

  /**
   * Replace occurrences at indexes already added (their result was redone: stubbed, cleared) and
   * re-decide the keys the old and the new ones can affect.
   */
  replace(occurrences: readonly Occurrence[]): void {
    const dirty = new Set<string>()
    for (const o of occurrences) {
      const old = this.s.occ[o.index]
      if (old) this.remove(old, dirty)
      this.add(o, dirty)
    }
    for (const key of dirty) if (this.s.byKey.has(key)) this.decide(key)
  }

  /**
   * Keep only the occurrences at indexes below `n` and re-decide the keys the others affected:
   * replay drops a group that held results (the fallback, a summary), and the records from the
   * first of them on are collected again with new indexes (then appended).
   */
  truncate(n: number): void {
    if (n >= this.s.occ.length) return
    const dirty = new Set<string>()
    for (let i = this.s.occ.length - 1; i >= n; i--) {
      const o = this.s.occ[i]
      if (o) this.remove(o, dirty)
    }
    this.s.occ.length = n
    this.out.length = n
    if (this.s.covered.length > n) this.s.covered.length = n
    for (const key of dirty) if (this.s.byKey.has(key)) this.decide(key)
  }

  /** Is `o` in its key's list (the results `decide` plans together)? */
  private listed(o: Occurrence): boolean {
    const { p } = this
    if (!o.identity) return false
    if (o.state !== 'fresh' && (p.faithful || o.state === 'modified')) return false
    return !(p.faithful && o.empty)
  }

  private remove(o: Occurrence, dirty: Set<string>): void {
    const { p } = this
    const id = o.identity
    this.unstale(o.index)
    if (!id) return
    if (this.listed(o)) {
      const list = this.s.byKey.get(id.key) as Occurrence[]
      const first = list[0]
      removeFrom(list, o, o.index, byIndex)
      if (list.length === 0) this.s.byKey.delete(id.key)
      else dirty.add(id.key)
      this.open?.listed(id.key, o, -1, first)
    }
    if (p.faithful) return
    if (this.s.lastFullRead.get(id.key) === o) {
      // The newest other fresh full read of the key, if any (all are on its list in fixed mode).
      const list = this.s.byKey.get(id.key) ?? []
      let newest: Occurrence | undefined
      for (const x of list) if (x.state === 'fresh' && x.identity?.isFullRead) newest = x
      if (newest) this.s.lastFullRead.set(id.key, newest)
      else this.s.lastFullRead.delete(id.key)
      this.touch(this.s.fullReadUsers.get(id.key), dirty)
    }
    const path = id.reads?.length === 1 ? (id.reads[0] as string) : undefined
    if (o.state === 'fresh' && id.lines && path !== undefined) {
      removeFrom(this.s.readsOf.get(path) as Occurrence[], o, o.index, byIndex)
      const version = this.s.readsChanged.get(path) ?? 0
      this.touchIf(this.s.coverUsers.get(path), dirty, (x) =>
        coverMayChange(this.s, x, o, path, version),
      )
      this.s.readsChanged.set(path, version + 1)
    }
    if (p.writesMakeStale)
      for (const w of id.writes ?? []) {
        const writes = this.s.writesOf.get(w) as number[]
        removeFrom(writes, o.index, o.index, itself)
        const prev = writeBefore(writes, o.index)
        this.touchIf(this.s.writeUsers.get(w), dirty, (x) => writeMayChange(x, w, o.index, prev))
      }
  }

  private add(o: Occurrence, dirty: Set<string> | null): void {
    const { p } = this
    const id = o.identity
    this.s.occ[o.index] = o
    this.unstale(o.index)
    this.out[o.index] = firstOutcome(o)
    if (!id) return
    if (!p.faithful) {
      if (o.state === 'fresh' && id.isFullRead) {
        const newest = this.s.lastFullRead.get(id.key)
        if (!newest || newest.index < o.index) this.s.lastFullRead.set(id.key, o)
        this.touch(this.s.fullReadUsers.get(id.key), dirty)
      }
      const path = id.reads?.length === 1 ? (id.reads[0] as string) : undefined
      if (o.state === 'fresh' && id.lines && path !== undefined) {
        const reads = this.s.readsOf.get(path)
        const last = reads?.[reads.length - 1]
        const version = this.s.readsChanged.get(path) ?? 0
        if (last && last.index > o.index) this.s.readsChanged.set(path, version + 1)
        insert(this.s.readsOf, path, o, o.index, byIndex)
        this.touchIf(this.s.coverUsers.get(path), dirty, (x) =>
          coverMayChange(this.s, x, o, path, version),
        )
      }
      if (p.writesMakeStale)
        for (const w of id.writes ?? []) {
          insert(this.s.writesOf, w, o.index, o.index, itself)
          const prev = writeBefore(this.s.writesOf.get(w) as number[], o.index)
          this.touchIf(this.s.writeUsers.get(w), dirty, (x) => writeMayChange(x, w, o.index, prev))
        }
    }
    if (!this.listed(o)) return
    const first = this.s.byKey.get(id.key)?.[0]
    insert(this.s.byKey, id.key, o, o.index, byIndex)
    this.open?.listed(id.key, o, 1, first)
    dirty?.add(id.key)
    if (p.faithful || o.state !== 'fresh') return
    // What `decide` will look up for this result: its key must be re-decided when those change.
    if (id.fullReadKey) this.use(this.s.fullReadUsers, id.fullReadKey, id.key)
    if (id.reads?.length === 1) {
      const path = id.reads[0] as string
      if (id.lines) this.use(this.s.coverUsers, path, id.key)
      if (p.writesMakeStale) this.use(this.s.writeUsers, path, id.key)
    }
  }

  /**
   * Mark the keys that read a lookup that changed (gained or lost a result) for re-deciding. With
   * `changesOnly`, only those with an open result: in a key with none, every fresh result is
   * settled (skipped by `decide`) and nothing is stale to limit, so deciding it changes nothing.
   */
  private touch(keys: ReadonlySet<string> | undefined, dirty: Set<string> | null): void {
    if (!dirty || !keys) return
    const open = this.open ? this.open.openOf(keys) : keys
    if (open) for (const k of open) dirty.add(k)
  }

  /**
   * {@link touch} for a lookup whose change can affect only some results (a read covers some
   * ranges, a write is the first later one for some reads): with `changesOnly`, only keys with an
   * open result it `affects` are marked (their others are closed or unaffected).
   */
  private touchIf(
    keys: ReadonlySet<string> | undefined,
    dirty: Set<string> | null,
    affects: (o: Occurrence) => boolean,
  ): void {
    const { open } = this
    if (!open) return this.touch(keys, dirty)
    const users = keys && open.openOf(keys)
    if (!users || !dirty) return
    for (const k of users) {
      if (dirty.has(k)) continue
      for (const o of open.openResults(k))
        if (affects(o)) {
          dirty.add(k)
          break
        }
    }
  }

  /** `key`'s outcomes read the lookup `lookup` of `users`. */
  private use(users: Map<string, Set<string>>, lookup: string, key: string): void {
    const set = addTo(users, lookup, key)
    this.open?.uses(key, set)
  }

  private set(o: Occurrence, outcome: Outcome): void {
    // Only fresh listed results are decided (see `decide`): keep them open or closed.
    const was = this.out[o.index]
    const key = o.identity?.key
    if (this.open && key !== undefined && was && o.state === 'fresh')
      this.open.decided(key, o, was.kind, outcome.kind)
    if (outcome.kind !== 'stub' && outcome.kind !== 'drop') this.unstale(o.index)
    else if (!this.removing.has(o.index)) {
      this.removing.add(o.index)
      this.staleSorted = null
    }
    this.out[o.index] = outcome
  }

  private decideStale(o: Occurrence, first: Occurrence, newer: number, cause: StaleCause): Outcome {
    const { p } = this
    const verdict = policyVerdict(first.tool, first.category, p, p.faithful)
    if (!verdict.allowed) return { kind: 'denied', newer, why: verdict.why }
    if (p.minToolOutputTokens > 0 && o.measure < p.minToolOutputTokens)
      return { kind: 'below_min', newer }
    return { kind: 'stub', newer, cause }
  }

  /** Decide every result of one key (the loop body of the former whole-conversation plan). */
  private decide(key: string): void {
    const { p } = this
    const list = this.s.byKey.get(key) as Occurrence[]
    const first = list[0] as Occurrence
    const keep = p.faithful ? 1 : p.preserveLastN
    // The results to decide, gathered once: every fresh one (replay re-decides keys whose lists
    // hold many stubs at every call, and each loop below walked the whole list), or in a replay
    // the open ones alone: no decision of a closed one can be a change (see open-keys.ts).
    const fresh = this.freshScratch
    fresh.length = 0
    const { open } = this
    let freshCount = 0
    if (open) {
      freshCount = open.freshOf(key)
      for (const o of open.openResults(key)) fresh.push(o)
    } else {
      for (let i = 0; i < list.length; i++) {
        const o = list[i] as Occurrence
        if (o.state === 'fresh') fresh.push(o)
      }
      freshCount = fresh.length
    }
    // The last `keep` fresh results are kept (by position: no set of them per key and decision).
    const recent = open ? this.recent.of(list, keep) : null
    const newest = recent ? recent.newest : fresh[freshCount - 1]
    let staleSet = false
    for (let at = 0; at < fresh.length; at++) {
      const o = fresh[at] as Occurrence
      // A later full read of the same file supersedes a ranged read (fixed only).
      const full = o.identity?.fullReadKey
        ? this.s.lastFullRead.get(o.identity.fullReadKey)
        : undefined
      if (full && full.index > o.index) {
        staleSet = this.setStale(o, this.decideStale(o, o, full.index, 'full_read')) || staleSet
        continue
      }
      // Fixed: a later read that shows these lines of the file (any tool), else a later write.
      const cover = p.faithful ? undefined : coveringRead(this.s, o)
      if (cover) {
        staleSet = this.setStale(o, this.decideStale(o, o, cover.index, cover.cause)) || staleSet
        continue
      }
      if (!newest || freshCount === 1) this.set(o, SINGLE)
      else if (o === newest) this.set(o, NEWEST)
      else {
        const rank = recent ? recent.rank(o) : freshCount - at
        if (rank <= keep) this.set(o, { kind: 'keep_recent', newer: newest.index, rank })
        else
          staleSet = this.setStale(o, this.decideStale(o, first, newest.index, 'newer')) || staleSet
      }
    }
    // Fixed: a result no newer read makes stale may still be outdated by a later write. A newer
    // copy of the same resource, when there is one, is the better pointer, so this comes last.
    if (!p.faithful)
      for (let at = 0; at < fresh.length; at++) {
        const o = fresh[at] as Occurrence
        const kind = this.out[o.index]?.kind
        if (kind !== 'newest' && kind !== 'single' && kind !== 'keep_recent') continue
        const write = laterWrite(this.s, p.writesMakeStale, o)
        if (write !== undefined)
          staleSet = this.setStale(o, this.decideStale(o, o, write, 'write')) || staleSet
      }
    // Only results this decision made stubs can become drops (see `limitStubs`).
    if (staleSet && !p.faithful && p.maxStubsPerResource !== null)
      this.limitStubs(list, p.maxStubsPerResource)
  }

  /** `set`, saying whether the outcome is a stub (`limitStubs` has something to limit). */
  private setStale(o: Occurrence, outcome: Outcome): boolean {
    this.set(o, outcome)
    return outcome.kind === 'stub'
  }

  /** Newest stubs first: beyond `max` (existing stubs count), stale results become drops. */
  private limitStubs(list: readonly Occurrence[], max: number): void {
    let stubs = 0
    for (let i = list.length - 1; i >= 0; i--) {
      const o = list[i] as Occurrence
      const outcome = this.out[o.index] as Outcome
      if (o.state === 'stub') stubs++
      else if (outcome.kind === 'stub') {
        if (stubs < max) stubs++
        else this.set(o, { kind: 'drop', newer: outcome.newer, cause: outcome.cause })
      }
    }
  }
}

/** An occurrence's outcome before its key is decided (and for good when it is listed nowhere). */
const firstOutcome = (o: Occurrence): Outcome =>
  o.state !== 'fresh' && (o.identity || o.state === 'stub') ? ALREADY : NO_IDENTITY

const ALREADY: Outcome = { kind: 'already' }
const NO_IDENTITY: Outcome = { kind: 'no_identity' }
const SINGLE: Outcome = { kind: 'single' }
const NEWEST: Outcome = { kind: 'newest' }
