/**
 * What the lip, opencode, anthropic and falai translations share: reading the pipeline (enabled
 * steps only — a disabled step does nothing, so losing it loses nothing), turning our triggers
 * and targets into the single token threshold those systems understand, and the common
 * warnings (a strategy the target lacks, protections it cannot honour, the fallback).
 */
import type { CompactionConfig } from '../../config/schema.ts'
import type { LossyWarning } from './types.ts'
import { maxOf, minOf } from '../../engine/arrays.ts'

export { exporterName } from '../../config/exporter.ts'

export type Step = CompactionConfig['pipeline'][number]
type Condition = NonNullable<Step['trigger']>['conditions'][number]

/** An enabled step with where it lives in the config. */
export interface ActiveStep {
  readonly index: number
  readonly path: string
  readonly step: Step
  readonly params: Readonly<Record<string, unknown>>
}

export function warning(path: string, message: string, instead: string): LossyWarning {
  return { path, message, instead }
}

/** The enabled steps, in pipeline order. */
export function activeSteps(config: CompactionConfig): ActiveStep[] {
  return config.pipeline.flatMap((step, index) =>
    step.enabled ? [{ index, path: `pipeline[${index}]`, step, params: step.params }] : [],
  )
}

/** The usable window (context − reserved output − buffer), which window fractions refer to. */
export function usableTokens(config: CompactionConfig): number {
  const w = config.window
  return Math.max(0, w.contextTokens - w.reservedOutput - w.buffer)
}

/** A config name (or any text) on one line, for a comment or a sentence. */
export function oneLine(text: string): string {
  return text.replace(/[\r\n]+/g, ' ')
}

/** 123456 → "123,456" (deterministic, no locale). */
export function fmt(n: number): string {
  return String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',')
}

function conditionTokens(c: Condition, usable: number): number | null {
  if (c.kind === 'tokens') return c.over
  if (c.kind === 'window_fraction') return Math.round(c.over * usable)
  return null
}

/** A step's trigger as one token threshold: `null` = no trigger (the step always runs). */
export interface TokenTrigger {
  readonly tokens: number | null
  readonly warnings: readonly LossyWarning[]
}

/**
 * Reduce a step's trigger to the one "more than N tokens" threshold these targets have. Token and
 * window-fraction conditions combine exactly (`any` → the lowest, `all` → the highest); count
 * conditions (messages, groups, turns, tool results) are lost, each with its own warning.
 */
export function tokenTrigger(
  s: ActiveStep,
  usable: number,
  label: string,
  mechanism: string,
): TokenTrigger {
  const trigger = s.step.trigger
  if (!trigger) return { tokens: null, warnings: [] }
  const warnings: LossyWarning[] = []
  const thresholds: number[] = []
  trigger.conditions.forEach((c, j) => {
    const tokens = conditionTokens(c, usable)
    if (tokens !== null) thresholds.push(tokens)
    else
      warnings.push(
        warning(
          `${s.path}.trigger.conditions[${j}]`,
          `${label} triggers ${mechanism} on a token count only; the "${c.kind} > ${c.over}" condition cannot be expressed.`,
          trigger.mode === 'all'
            ? 'it runs without waiting for that count'
            : 'it runs only on the token condition(s)',
        ),
      )
  })
  if (thresholds.length === 0) {
    return { tokens: null, warnings }
  }
  const tokens = trigger.mode === 'all' ? maxOf(thresholds) : minOf(thresholds)
  return { tokens, warnings }
}

/** A step's early-stop target in tokens (`null`: none). */
export function targetTokens(s: ActiveStep, usable: number): number | null {
  const t = s.step.target
  if (!t) return null
  return t.kind === 'tokens' ? t.under : Math.round(t.under * usable)
}

/** An exported step's early-stop target and when the target system runs it. */
export interface Ordered {
  readonly step: ActiveStep
  /** Tokens the step stops the pipeline under (`null`: no target). */
  readonly target: number | null
  /** Tokens above which the target system runs it (`null`: always). */
  readonly runsOver: number | null
}

/**
 * Our target says "once under N tokens, skip the later steps". Targets without that notion run
 * every later mechanism on its own threshold, which differs only where a later step would run
 * below N; warn exactly there.
 */
export function targetWarnings(steps: readonly Ordered[], label: string): LossyWarning[] {
  const out: LossyWarning[] = []
  steps.forEach((o, i) => {
    if (o.target === null) return
    const early = steps
      .slice(i + 1)
      .filter((later) => later.runsOver === null || later.runsOver < (o.target as number))
    if (early.length === 0) return
    out.push(
      warning(
        `${o.step.path}.target`,
        `${label} has no early stop: once under ${fmt(o.target)} tokens our pipeline skips ${early
          .map((l) => l.step.step.strategy)
          .join(', ')}, which ${label} still runs on its own threshold.`,
        'the later mechanisms run whenever their own thresholds are crossed',
      ),
    )
  })
  return out
}

/** A whole step the target has no mechanism for. */
export function unsupportedStep(s: ActiveStep, label: string, has: string): LossyWarning {
  return warning(
    `${s.path}.strategy`,
    `${label} has no equivalent of the ${s.step.strategy} step; it only ${has}.`,
    'this step is left out: nothing it would have removed is removed',
  )
}

/** A second step of a kind the target has only one of. */
export function duplicateStep(s: ActiveStep, first: ActiveStep, label: string): LossyWarning {
  return warning(
    `${s.path}.strategy`,
    `${label} has only one ${s.step.strategy} mechanism; this step repeats ${first.path}.`,
    `only ${first.path} is exported`,
  )
}

/** A parameter with no counterpart in the target, when it differs from what the target does. */
export function paramWarning(
  s: ActiveStep,
  name: string,
  label: string,
  what: string,
  instead: string,
): LossyWarning {
  return warning(`${s.path}.params.${name}`, `${label} ${what}.`, instead)
}

/** The final fallback (drop oldest groups), which none of these targets has. */
export function fallbackWarnings(config: CompactionConfig, label: string): LossyWarning[] {
  if (!config.fallback.enabled) return []
  return [
    warning(
      'fallback',
      `${label} has no final fallback that drops the oldest groups when the pipeline is not enough.`,
      'the context is left over budget and the request goes out as it is',
    ),
  ]
}

export type ProtectionKey = 'recentTurns' | 'pinned' | 'tools'

/**
 * Protections the target cannot honour: the last N turns, pinned ids and protected tools. The
 * system prompt, pending calls and the latest thinking are left to each target (most of them
 * never touch those in the first place).
 */
export function protectionWarnings(
  config: CompactionConfig,
  label: string,
  unsupported: readonly ProtectionKey[],
): LossyWarning[] {
  const p = config.protections
  const out: LossyWarning[] = []
  if (unsupported.includes('recentTurns') && p.recentTurns > 0)
    out.push(
      warning(
        'protections.recentTurns',
        `${label} cannot protect the last ${p.recentTurns} user turn(s) as a whole.`,
        'recent turns are compacted like older ones, within the target’s own recency rules',
      ),
    )
  if (unsupported.includes('pinned') && p.pinned.length > 0)
    out.push(
      warning(
        'protections.pinned',
        `${label} has no way to pin messages (${p.pinned.join(', ')}).`,
        'pinned messages are compacted like any other',
      ),
    )
  if (unsupported.includes('tools') && p.tools.length > 0)
    out.push(
      warning(
        'protections.tools',
        `${label} cannot protect the tools ${p.tools.join(', ')} from compaction.`,
        'their calls and results are compacted like any other',
      ),
    )
  return out
}

/** `{ a: [1, 2] }` style JSON with two-space indent and a trailing newline. */
export function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`
}

/**
 * When a falai-style step (summarize, tool-result-budget, micro-compact) runs: its pipeline
 * trigger and its own gate (`maxTokens` × `compactionThreshold`, the usable window standing in
 * for an unset maxTokens) must both hold, so the effective threshold is the higher of the two.
 */
export function gatedThreshold(
  s: ActiveStep,
  usable: number,
  label: string,
  mechanism: string,
): TokenTrigger {
  const trigger = tokenTrigger(s, usable, label, mechanism)
  const ratio = s.params.compactionThreshold
  if (typeof ratio !== 'number') return trigger
  const max = typeof s.params.maxTokens === 'number' ? s.params.maxTokens : usable
  const gate = Math.round(max * ratio)
  return { tokens: Math.max(gate, trigger.tokens ?? 0), warnings: trigger.warnings }
}
