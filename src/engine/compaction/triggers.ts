import type { Target, Trigger, TriggerCondition } from './types.ts'
import type { WorkingView } from './view.ts'

/** Current measures a trigger can test, computed from the view in one pass. */
export interface Measures {
  readonly tokens: number
  readonly usable: number
  readonly messages: number
  readonly groups: number
  readonly turns: number
  readonly toolResults: number
}

/**
 * Measures computed on first use: token triggers (the common case, and every replay point) never
 * pay for the O(n) counting pass.
 */
export function measure(view: WorkingView, usable: number): Measures {
  return new LazyMeasures(view, usable)
}

/**
 * A class with its getters on the prototype: an object literal with four getters made four
 * closures and an object with accessor properties at every step of every replay call.
 */
class LazyMeasures implements Measures {
  readonly tokens: number
  readonly usable: number
  private readonly view: WorkingView
  private counts: Omit<Measures, 'tokens' | 'usable'> | null = null

  constructor(view: WorkingView, usable: number) {
    this.view = view
    this.usable = usable
    this.tokens = view.contextTokens
  }

  private get all(): Omit<Measures, 'tokens' | 'usable'> {
    return (this.counts ??= countAll(this.view))
  }

  get messages(): number {
    return this.all.messages
  }

  get groups(): number {
    return this.all.groups
  }

  get turns(): number {
    return this.all.turns
  }

  get toolResults(): number {
    return this.all.toolResults
  }
}

function countAll(view: WorkingView): Omit<Measures, 'tokens' | 'usable'> {
  let messages = 0
  let groups = 0
  let turns = 0
  let toolResults = 0
  const pairing = view.prepared.grouping.pairing
  for (const g of view.visibleGroups()) {
    if (view.isExcluded(g.index)) continue
    groups++
    turns = Math.max(turns, g.turn)
    messages += view.messagesOf(g.index).length
    for (const r of g.results)
      if ((pairing.results[r]?.message ?? Infinity) < view.limit) toolResults++
  }
  groups += view.summaries().length
  messages += view.summaries().length
  return { messages, groups, turns, toolResults }
}

function holds(c: TriggerCondition, m: Measures): boolean {
  switch (c.kind) {
    case 'tokens':
      return m.tokens > c.over
    case 'window_fraction':
      return m.tokens > c.over * m.usable
    case 'messages':
      return m.messages > c.over
    case 'groups':
      return m.groups > c.over
    case 'turns':
      return m.turns > c.over
    case 'tool_results':
      return m.toolResults > c.over
  }
}

export function describeCondition(c: TriggerCondition): string {
  switch (c.kind) {
    case 'tokens':
      return `tokens > ${c.over}`
    case 'window_fraction':
      return `tokens > ${Math.round(c.over * 100)}% of the usable window`
    default:
      return `${c.kind.replace('_', ' ')} > ${c.over}`
  }
}

/** Does the trigger fire? No trigger means "always run". */
export function evaluateTrigger(
  trigger: Trigger | undefined,
  m: Measures,
  worded = true,
): { fired: boolean; why: string } {
  if (!trigger || trigger.conditions.length === 0)
    return { fired: true, why: 'no trigger: always runs' }
  const all = trigger.mode === 'all'
  // One pass: each condition is measured once. Unworded (a replay's calls report no steps), it
  // stops at the first condition that settles the verdict and builds no sentence.
  let fired = all
  const parts: string[] | null = worded ? [] : null
  for (const c of trigger.conditions) {
    const ok = holds(c, m)
    if (ok !== all) {
      fired = !all
      if (!parts) break
    }
    parts?.push(`${describeCondition(c)} ${ok ? '✓' : '✗'}`)
  }
  if (!parts) return { fired, why: '' }
  return { fired, why: `${all ? 'all of' : 'any of'}: ${parts.join(', ')} (tokens ${m.tokens})` }
}

/** Budget a target stands for, in tokens. */
export function targetTokens(target: Target, usable: number): number {
  return target.kind === 'tokens' ? target.under : target.under * usable
}
