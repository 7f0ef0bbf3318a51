/**
 * What changed between two runs on the same transcript: the line under the editor that answers
 * "what did my edit do?" without comparing the budget by eye.
 */
import type { RunView } from '../../../store/index.ts'

export interface RunDelta {
  readonly afterBefore: number
  readonly afterNow: number
  /** Change in tokens after compaction (negative: the edit compacts more). */
  readonly afterChange: number
  readonly savedBefore: number
  readonly savedNow: number
  /** Change in tokens saved (positive: the edit saves more). */
  readonly savedChange: number
  /** Groups present in both runs whose status differs. */
  readonly groupsChanged: number
  /** Invariant checks failing now that held before, and the reverse. */
  readonly newlyFailing: readonly string[]
  readonly newlyPassing: readonly string[]
  readonly configBefore: string
  readonly configNow: string
}

type DeltaInput = Pick<RunView, 'configName' | 'tokens' | 'groups' | 'invariants'>

function statusById(groups: DeltaInput['groups']): Map<string, string> {
  const out = new Map<string, string>()
  const { ids, status } = groups
  for (let i = 0; i < ids.length; i++) out.set(ids[i] as string, status[i] as string)
  return out
}

function failing(summary: DeltaInput): Set<string> {
  return new Set(summary.invariants.checks.filter((c) => !c.ok).map((c) => c.id))
}

/**
 * Groups in both runs whose status differs. Runs on one transcript list the same groups in the
 * same order, so the ids are compared in place first (no map of 10,000 ids in the render that
 * paints an edit); any other pair is matched by id.
 */
function changedGroups(was: DeltaInput['groups'], now: DeltaInput['groups']): number {
  const { ids, status } = now
  let changed = 0
  if (was.ids === ids || sameIds(was.ids, ids)) {
    for (let i = 0; i < ids.length; i++) if (was.status[i] !== status[i]) changed++
    return changed
  }
  const before = statusById(was)
  for (let i = 0; i < ids.length; i++) {
    const old = before.get(ids[i] as string)
    if (old !== undefined && old !== status[i]) changed++
  }
  return changed
}

function sameIds(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

/** Compare the previous run with the latest (groups matched by id, not by position). */
export function runDelta(previous: DeltaInput, latest: DeltaInput): RunDelta {
  const saved = (s: DeltaInput) => s.tokens.before - s.tokens.after
  const groupsChanged = changedGroups(previous.groups, latest.groups)
  const failedBefore = failing(previous)
  const failsNow = failing(latest)
  return {
    afterBefore: previous.tokens.after,
    afterNow: latest.tokens.after,
    afterChange: latest.tokens.after - previous.tokens.after,
    savedBefore: saved(previous),
    savedNow: saved(latest),
    savedChange: saved(latest) - saved(previous),
    groupsChanged,
    newlyFailing: [...failsNow].filter((id) => !failedBefore.has(id)),
    newlyPassing: [...failedBefore].filter((id) => !failsNow.has(id)),
    configBefore: previous.configName,
    configNow: latest.configName,
  }
}

/** True when the two runs gave the same result as far as the delta line can tell. */
export function isUnchanged(delta: RunDelta): boolean {
  return (
    delta.afterChange === 0 &&
    delta.groupsChanged === 0 &&
    delta.newlyFailing.length === 0 &&
    delta.newlyPassing.length === 0
  )
}

// `toLocaleString` builds a number format on every call (≈ 1 ms each in the profile of a field
// edit, in the render that paints the budget); one shared format gives the same text.
const plain = new Intl.NumberFormat('en-US')

/** `+1,234` / `−1,234` / `±0`, with a real minus sign. */
export function signed(n: number): string {
  if (n === 0) return '±0'
  const abs = plain.format(Math.abs(n))
  return n > 0 ? `+${abs}` : `−${abs}`
}
