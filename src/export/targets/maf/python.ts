/**
 * Python literal helpers for the Agent Framework snippet, plus the token arithmetic every MAF
 * mapping shares. Kept apart from the mapping so the mapping reads as "our name → MAF name".
 */
import type { CompactionConfig } from '../../../config/schema.ts'
import type { LossyWarning } from '../types.ts'

type Step = CompactionConfig['pipeline'][number]
type Trigger = NonNullable<Step['trigger']>

/** `128_000`: Python accepts underscores, and they make budgets readable. */
export function pyInt(n: number): string {
  if (!Number.isInteger(n)) return String(n)
  const sign = n < 0 ? '-' : ''
  return sign + String(Math.abs(n)).replace(/\B(?=(\d{3})+(?!\d))/g, '_')
}

/** A double-quoted Python string; JSON escapes are valid Python escapes. */
export function pyStr(s: string): string {
  return JSON.stringify(s)
}

export function pyBool(b: boolean): string {
  return b ? 'True' : 'False'
}

/** `Name(\n    a=1,\n    b=2,\n)` at the given indent, or `Name(a=1)` when short. */
export function pyCall(name: string, args: readonly string[], indent = ''): string {
  if (args.length === 0) return `${name}()`
  const flat = `${name}(${args.join(', ')})`
  if (flat.length + indent.length <= 88 && !flat.includes('\n')) return flat
  const inner = `${indent}    `
  return `${name}(\n${args.map((a) => `${inner}${a},`).join('\n')}\n${indent})`
}

/** The usable window our triggers measure fractions of (SPEC §5). */
export function usableTokens(config: CompactionConfig): number {
  const w = config.window
  return Math.max(0, w.contextTokens - w.reservedOutput - w.buffer)
}

/**
 * A trigger that is exactly "included tokens over N" (a `tokens` condition, or a window fraction,
 * which over integer token counts is the same as over its floor), else null.
 */
export function triggerTokens(trigger: Trigger | undefined, usable: number): number | null {
  if (!trigger || trigger.conditions.length !== 1) return null
  const c = trigger.conditions[0]
  if (!c) return null
  if (c.kind === 'tokens') return c.over
  if (c.kind === 'window_fraction') return Math.floor(c.over * usable)
  return null
}

/** A target as a token count (stop once under it). */
export function targetTokenCount(target: Step['target'], usable: number): number | null {
  if (!target) return null
  return target.kind === 'tokens' ? target.under : Math.floor(target.under * usable)
}

/** Collects warnings with the step path filled in. */
export class Warnings {
  readonly list: LossyWarning[] = []
  add(path: string, message: string, instead: string): void {
    this.list.push({ path, message, instead })
  }
}
