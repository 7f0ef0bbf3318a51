/**
 * Our triggers as LangChain `ContextSize` conditions. LangChain fires when a size is *at or
 * over* the value (`tokens >= n`), ours when it is *over* it, so integer thresholds shift by one.
 * One object = all of its keys must hold; an array = any of its objects.
 */
import type { CompactionConfig } from '../../../config/schema.ts'
import type { LossyWarning } from '../types.ts'

type Step = CompactionConfig['pipeline'][number]
type Trigger = NonNullable<Step['trigger']>

/** `{tokens?, messages?}`: LangChain's fraction is of the model profile, so we use tokens. */
export type ContextSize = { tokens?: number; messages?: number }

export function usableTokens(config: CompactionConfig): number {
  const w = config.window
  return Math.max(0, w.contextTokens - w.reservedOutput - w.buffer)
}

/** AND of two sizes: the larger threshold of each key must be reached. */
function both(a: ContextSize, b: ContextSize): ContextSize {
  const out: ContextSize = { ...a }
  for (const k of ['tokens', 'messages'] as const) {
    const v = b[k]
    if (v !== undefined) out[k] = Math.max(out[k] ?? 0, v)
  }
  return out
}

/** AND of two OR-lists (empty = no condition). */
export function andAlternatives(
  a: readonly ContextSize[],
  b: readonly ContextSize[],
): ContextSize[] {
  if (a.length === 0) return [...b]
  if (b.length === 0) return [...a]
  return a.flatMap((x) => b.map((y) => both(x, y)))
}

/**
 * A step trigger as OR-alternatives; conditions LangChain cannot measure (groups, turns, tool
 * results) are dropped with a warning.
 */
export function triggerAlternatives(
  trigger: Trigger | undefined,
  path: string,
  usable: number,
  warnings: LossyWarning[],
): ContextSize[] {
  if (!trigger) return []
  const sizes: ContextSize[] = []
  trigger.conditions.forEach((c, n) => {
    switch (c.kind) {
      case 'tokens':
        sizes.push({ tokens: c.over + 1 })
        return
      case 'window_fraction':
        sizes.push({ tokens: Math.floor(c.over * usable) + 1 })
        return
      case 'messages':
        sizes.push({ messages: c.over + 1 })
        return
      default:
        warnings.push({
          path: `${path}.conditions[${n}]`,
          message: `LangChain triggers measure only tokens, messages and a fraction of the model's input limit, not ${c.kind.replace('_', ' ')}.`,
          instead: 'The condition is left out of the trigger.',
        })
    }
  })
  if (trigger.mode === 'all') return sizes.length === 0 ? [] : [sizes.reduce(both)]
  return sizes
}

export function targetLost(step: Step, i: number, warnings: LossyWarning[]): void {
  if (!step.target) return
  warnings.push({
    path: `pipeline[${i}].target`,
    message: 'LangChain middleware has no early stop between steps.',
    instead: 'Every middleware runs whenever its own trigger holds.',
  })
}
