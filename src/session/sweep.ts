/**
 * Sweep: the same config run once per value of one numeric parameter, without replay, reporting
 * tokens after, tokens saved, removed-then-used tokens and invariant violations per value.
 */
import type { Conversation } from '../engine/model.ts'
import { STRATEGY_REGISTRY } from '../engine/strategies/index.ts'
import type { TextCounter } from '../engine/tokens/types.ts'
import { validateConfig, type ConfigIssue } from '../config/validate.ts'
import { setNumberAtPath } from '../config/path.ts'
import { compactOnce } from './once.ts'
import type { SweepPoint } from './types.ts'
import { resolveConfig } from './run.ts'

export interface SweepOptions {
  /** Called between points; resolving false abandons the sweep (stale). */
  readonly checkpoint: (done: number, total: number) => Promise<boolean>
  /** Also price each point: a replay per point, for the cost axis. */
  readonly withCost?: boolean
}

export type SweepOutcome =
  | { readonly kind: 'swept'; readonly points: readonly SweepPoint[] }
  | { readonly kind: 'invalid'; readonly issues: readonly ConfigIssue[] }
  | { readonly kind: 'stale' }

function failed(value: number, error: string): SweepPoint {
  return {
    value,
    ok: false,
    before: 0,
    after: 0,
    saved: 0,
    changes: 0,
    violations: 0,
    risk: { usedLater: 0, tokens: 0 },
    error,
  }
}

/**
 * Run `config` once per value with the number at `path` set to it. The base config is validated
 * first (with defaults filled, so a default param can be swept); an invalid base config or a path
 * that leads to no number is `invalid` and nothing runs. A value the config rejects (a window
 * smaller than its reserved output, a negative count) is a point with `ok: false` and the reason,
 * so the chart can show the gap instead of the whole sweep failing.
 */
export async function sweepConfig(
  conversation: Conversation,
  counter: TextCounter,
  config: unknown,
  path: string,
  values: readonly number[],
  options: SweepOptions,
): Promise<SweepOutcome> {
  const base = resolveConfig(config, undefined)
  if (!base.ok) return { kind: 'invalid', issues: base.issues }
  const probe = setNumberAtPath(base.config, path, values[0] ?? 0)
  if (!probe.ok) return { kind: 'invalid', issues: [{ path, message: probe.message }] }

  const points: SweepPoint[] = []
  for (const value of values) {
    if (!(await options.checkpoint(points.length, values.length))) return { kind: 'stale' }
    const set = setNumberAtPath(base.config, path, value)
    if (!set.ok) {
      points.push(failed(value, set.message))
      continue
    }
    const valid = validateConfig(set.value, STRATEGY_REGISTRY)
    if (!valid.ok) {
      points.push(failed(value, valid.issues.map((i) => `${i.path}: ${i.message}`).join('; ')))
      continue
    }
    const once = await compactOnce(conversation, counter, valid.config, {
      withCost: options.withCost === true,
    })
    points.push({
      ...(once.cost ? { costAfter: once.cost.after } : {}),
      value,
      ok: true,
      before: once.before,
      after: once.after,
      saved: once.before - once.after,
      changes: once.result.changes,
      violations: once.violations,
      risk: once.risk,
    })
  }
  return { kind: 'swept', points }
}
