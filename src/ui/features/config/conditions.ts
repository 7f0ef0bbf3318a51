/**
 * The trigger conditions and targets as the editor offers them. Which kinds exist and the bounds
 * of their numbers come from the schema (`ConfigModel`, sent with the worker's catalog); only
 * the words for each kind and a sensible starting value when the user picks one live here.
 */
import type { ConfigModel, KindModel } from '../../../store/index.ts'
import type { FieldSpec } from './schemaFields.ts'

const LABELS: Readonly<Record<string, string>> = {
  tokens: 'context tokens',
  window_fraction: 'fraction of usable window',
  messages: 'messages',
  groups: 'groups',
  turns: 'user turns',
  tool_results: 'tool results',
}

const START: Readonly<Record<string, number>> = {
  tokens: 100_000,
  window_fraction: 0.8,
  messages: 200,
  groups: 100,
  turns: 20,
  tool_results: 50,
}

/** How the editor names a kind (the kind itself for one it has no words for yet). */
export function kindLabel(kind: string): string {
  return LABELS[kind] ?? kind.replace(/_/g, ' ')
}

/** A first value for a newly picked kind: inside its bounds whatever they are. */
export function startValue(model: KindModel): number {
  const start = START[model.kind] ?? (model.bounds.integer ? 1 : 0.5)
  const { min, max } = model.bounds
  if (max !== null && start > max) return max
  if (min !== null && start < min) return model.bounds.exclusiveMin ? (max ?? min + 1) : min
  return start
}

export function conditionKind(model: ConfigModel, kind: unknown): KindModel | undefined {
  return model.conditions.find((k) => k.kind === kind)
}

export function targetKind(model: ConfigModel, kind: unknown): KindModel | undefined {
  return model.targets.find((k) => k.kind === kind)
}

/** The number field of `over`/`under`, with the bounds the schema gives that kind. */
export function amountSpec(model: KindModel): FieldSpec {
  const { integer, min, exclusiveMin, max } = model.bounds
  const field = {
    kind: 'number' as const,
    integer,
    nullable: false,
    ...(min !== null ? (exclusiveMin ? { exclusiveMin: min } : { min }) : {}),
    ...(max !== null ? { max } : {}),
  }
  return {
    key: model.key,
    field,
    required: true,
    description: '',
    hasDefault: false,
    defaultValue: undefined,
  }
}
