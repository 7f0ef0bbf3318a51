/**
 * The trigger conditions and targets the config schema allows, as the editor offers them: what
 * each kind measures, its number field, and a sensible starting value when the user picks it.
 */
import type { FieldSpec } from './schemaFields.ts'

export const CONDITION_KINDS = [
  'tokens',
  'window_fraction',
  'messages',
  'groups',
  'turns',
  'tool_results',
] as const
export type ConditionKind = (typeof CONDITION_KINDS)[number]

export const TARGET_KINDS = ['tokens', 'window_fraction'] as const
export type TargetKind = (typeof TARGET_KINDS)[number]

export const CONDITION_LABELS: Record<ConditionKind, string> = {
  tokens: 'context tokens',
  window_fraction: 'fraction of usable window',
  messages: 'messages',
  groups: 'groups',
  turns: 'user turns',
  tool_results: 'tool results',
}

const START: Record<ConditionKind, number> = {
  tokens: 100_000,
  window_fraction: 0.8,
  messages: 200,
  groups: 100,
  turns: 20,
  tool_results: 50,
}

export function isConditionKind(value: unknown): value is ConditionKind {
  return CONDITION_KINDS.some((k) => k === value)
}

export function isTargetKind(value: unknown): value is TargetKind {
  return TARGET_KINDS.some((k) => k === value)
}

export function startValue(kind: ConditionKind): number {
  return START[kind]
}

/** The number field of `over`/`under`: a fraction in (0, 1], else a whole count ≥ 0. */
export function amountSpec(kind: ConditionKind, key: 'over' | 'under'): FieldSpec {
  const field =
    kind === 'window_fraction'
      ? { kind: 'number' as const, integer: false, nullable: false, exclusiveMin: 0, max: 1 }
      : { kind: 'number' as const, integer: true, nullable: false, min: 0 }
  return { key, field, required: true, description: '', hasDefault: false, defaultValue: undefined }
}
