/** The invariants panel's model: failing checks, their offending groups, next/previous (pure). */
import type { RunView } from '../../../store/index.ts'

type WireCheck = RunView['invariants']['checks'][number]

export interface FailingCheck {
  readonly id: string
  readonly detail: string
  /** Offending groups in conversation order (offenders that name no group are left out). */
  readonly groups: readonly string[]
  /** Offenders as the engine named them (groups, messages, parts, `total`…). */
  readonly offenders: readonly string[]
}

/** One stop of the next/previous walk: a group and the check it breaks. */
export interface Offence {
  readonly checkId: string
  readonly groupId: string
}

/**
 * The groups a check's offenders point at. The worker maps them (`groups`); an older worker did
 * not, so group ids and `<group id>:…` part keys among the offenders are used as they are.
 */
export function offendingGroups(check: WireCheck, order: ReadonlyMap<string, number>): string[] {
  const named = check.groups ?? fallbackGroups(check.offenders, order)
  return [...new Set(named)]
    .filter((id) => order.has(id))
    .sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0))
}

function fallbackGroups(
  offenders: readonly string[],
  order: ReadonlyMap<string, number>,
): string[] {
  const out: string[] = []
  for (const offender of offenders) {
    let key = offender
    while (!order.has(key) && key.lastIndexOf(':') > 0) key = key.slice(0, key.lastIndexOf(':'))
    if (order.has(key)) out.push(key)
  }
  return out
}

export function failingChecks(summary: RunView): FailingCheck[] {
  const failing = summary.invariants.checks.filter((c) => !c.ok)
  // Usually every check passes: the order of 10,000 groups is built only when one fails (it was
  // built on every run, in the render after each edit).
  if (failing.length === 0) return []
  const order = new Map(summary.groups.ids.map((id, i) => [id, i]))
  return failing.map((c) => ({
    id: c.id,
    detail: c.detail,
    offenders: c.offenders,
    groups: offendingGroups(c, order),
  }))
}

/** Every offending group of every failing check, check by check (a group may appear twice). */
export function offences(checks: readonly FailingCheck[]): Offence[] {
  return checks.flatMap((c) => c.groups.map((groupId) => ({ checkId: c.id, groupId })))
}

/** Where the selection is in the walk (−1 when it is not an offending group). */
export function offenceIndex(
  list: readonly Offence[],
  selected: string | null,
  hint: number,
): number {
  if (selected === null) return -1
  // The same group can break two checks: prefer the stop we last moved to.
  if (list[hint]?.groupId === selected) return hint
  return list.findIndex((o) => o.groupId === selected)
}

/** The stop `delta` away from `at`, wrapping; from nowhere, next is the first and previous the last. */
export function stepOffence(length: number, at: number, delta: 1 | -1): number {
  if (length === 0) return -1
  if (at < 0) return delta > 0 ? 0 : length - 1
  return (((at + delta) % length) + length) % length
}

/** A readable name for a check id: `results_have_calls` → "results have calls". */
export function checkLabel(id: string): string {
  return id.replaceAll('_', ' ')
}
