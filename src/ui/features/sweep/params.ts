/**
 * The numeric parameters of a config a sweep can vary: every number in the window, the
 * protections, each step's params, trigger conditions and target, and the fallback target, with
 * a label a person can read ("2 · clear-tool-uses · keep") and the path the worker understands
 * (`pipeline[1].params.keep`). Whether a number is whole and what bounds it has come from the
 * schema's `ConfigModel` (the worker's catalog); without one (not in yet) they are guessed from
 * the value. Pure: no React, no store.
 */
import type { ConfigModel, NumberBounds } from '../../../store/index.ts'

export interface NumericParam {
  readonly path: string
  readonly label: string
  readonly value: number
  /** Whole numbers only (token counts, keep counts); false for fractions and ratios. */
  readonly integer: boolean
  /** Bounds the value must respect (fractions of a window lie in (0, 1]). */
  readonly min: number
  readonly max: number | null
}

type Json = Record<string, unknown>

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function isNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value)
}

function param(
  path: string,
  label: string,
  value: number,
  bounds: NumberBounds | undefined,
  fraction = false,
): NumericParam {
  if (bounds) {
    const { integer, min, max } = bounds
    return { path, label, value, integer, min: min ?? 0, max }
  }
  const integer = !fraction && Number.isInteger(value)
  return { path, label, value, integer, min: 0, max: fraction ? 1 : null }
}

/** Numbers anywhere under `value` (strategy params may nest: rules, per-tool limits). */
function leaves(
  value: unknown,
  path: string,
  label: string,
  out: NumericParam[],
  bounds?: NumberBounds,
): void {
  if (isNumber(value)) {
    out.push(param(path, label, value, bounds))
  } else if (Array.isArray(value)) {
    value.forEach((v, i) => leaves(v, `${path}[${i}]`, `${label}[${i}]`, out))
  } else if (isRecord(value)) {
    for (const [key, v] of Object.entries(value))
      leaves(v, `${path}.${key}`, `${label}.${key}`, out)
  }
}

/** `over`/`under` of a trigger condition or target; a `window_fraction` one is a fraction. */
function bound(
  holder: unknown,
  key: 'over' | 'under',
  path: string,
  label: string,
  out: NumericParam[],
  model: ConfigModel | undefined,
): void {
  if (!isRecord(holder) || !isNumber(holder[key])) return
  const kind = typeof holder.kind === 'string' ? holder.kind : ''
  const kinds = key === 'over' ? model?.conditions : model?.targets
  const bounds = kinds?.find((k) => k.kind === kind)?.bounds
  const fraction = kind === 'window_fraction'
  out.push(
    param(
      `${path}.${key}`,
      `${label} ${kind.replace('_', ' ')} ${key}`,
      holder[key],
      bounds,
      fraction,
    ),
  )
}

function stepParams(
  step: Json,
  i: number,
  out: NumericParam[],
  model: ConfigModel | undefined,
): void {
  const strategy = typeof step.strategy === 'string' ? step.strategy : 'step'
  const off = step.enabled === false ? ' (off)' : ''
  const prefix = `${i + 1} · ${strategy}${off} ·`
  const path = `pipeline[${i}]`
  if (isRecord(step.params)) {
    const known = model?.strategies[strategy]
    for (const [key, v] of Object.entries(step.params)) {
      leaves(v, `${path}.params.${key}`, `${prefix} ${key}`, out, known?.[key])
    }
  }
  const trigger = step.trigger
  if (isRecord(trigger) && Array.isArray(trigger.conditions)) {
    const many = trigger.conditions.length > 1
    trigger.conditions.forEach((c, j) => {
      const label = many ? `${prefix} trigger ${j + 1}:` : `${prefix} trigger`
      bound(c, 'over', `${path}.trigger.conditions[${j}]`, label, out, model)
    })
  }
  bound(step.target, 'under', `${path}.target`, `${prefix} target`, out, model)
}

/** Every numeric leaf of a config (our versioned JSON), in the order the config lists them. */
export function listNumericParams(config: unknown, model?: ConfigModel): NumericParam[] {
  const out: NumericParam[] = []
  if (!isRecord(config)) return out
  if (isRecord(config.window)) {
    for (const [key, v] of Object.entries(config.window)) {
      if (isNumber(v)) out.push(param(`window.${key}`, `window · ${key}`, v, model?.window[key]))
    }
  }
  if (isRecord(config.protections) && isNumber(config.protections.recentTurns)) {
    const v = config.protections.recentTurns
    const bounds = model?.protections.recentTurns
    out.push(param('protections.recentTurns', 'protections · recentTurns', v, bounds))
  }
  if (Array.isArray(config.pipeline)) {
    config.pipeline.forEach((step, i) => {
      if (isRecord(step)) stepParams(step, i, out, model)
    })
  }
  if (isRecord(config.fallback)) {
    bound(config.fallback.target, 'under', 'fallback.target', 'fallback · target', out, model)
  }
  return out
}
