import type { Prepared } from '../compaction/prepared.ts'
import type { Message, ReportedUsage } from '../model.ts'
import { fitPrefixScale, type FitPoint, type FitResult } from './fit.ts'
import { alternativeRule, contextPlan, type ContextPlan, type ThinkingRule } from './plan.ts'
import type { AccountingOverrides, CallFigure, IgnoredCall, Reconciliation } from './types.ts'
import { visibleContexts } from './visible.ts'
import { mapItems } from '../arrays.ts'
import { withFields } from '../objects.ts'

/** A call's residual above this is flagged (|estimate − reported| / reported). */
export const FLAG_RESIDUAL = 0.1
/** Fewer usable calls than this: no fit (one call would only copy its figure in). */
const MIN_CALLS_TO_FIT = 2

/** Why a reported figure cannot be used, or null when it can. */
export function usageProblem(usage: ReportedUsage | undefined): string | null {
  if (!usage) return 'no usage reported for this call'
  const c: unknown = usage.contextTokens
  if (c === undefined) return 'usage has no prompt size'
  if (typeof c !== 'number' || !Number.isFinite(c))
    return `prompt size is not a number (${String(c)})`
  if (c < 0) return `prompt size is negative (${c})`
  if (c === 0) return 'prompt size is 0 (an aborted or failed call?)'
  for (const [name, v] of [
    ['input', usage.inputTokens],
    ['cache read', usage.cacheReadTokens],
    ['cache write', usage.cacheWriteTokens],
  ] as const) {
    if (v === undefined) continue
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0)
      return `${name} tokens are not a count (${String(v)})`
    if (v > c) return `${name} tokens (${v}) exceed the prompt size (${c}): inconsistent usage`
  }
  return null
}

export interface ReconcileOptions {
  readonly overrides?: AccountingOverrides
  /** Only these calls (session positions) may be fitted on (the prediction check). */
  readonly fitOn?: (call: number) => boolean
}

export type { ThinkingRule }

/**
 * Reconstruct the context of every model call and reconcile it with the transcript's reported
 * usage (see `fit.ts` for the model). Pure and deterministic; O(calls) apart from the fit.
 */
export function reconcile(prepared: Prepared, options: ReconcileOptions = {}): Reconciliation {
  // A conversation we compacted measures with the figures of the run that compacted it.
  const carried = prepared.conversation.meta.carriedAccounting
  if (
    carried &&
    options.overrides?.prefixTokens === undefined &&
    options.overrides?.scale === undefined
  )
    options = withFields(options, { overrides: carried })
  const documented = reconcileUnder(prepared, contextPlan(prepared), options)
  const other = alternativeRule(contextPlan(prepared))
  if (other === null || documented.source !== 'reconciled') return documented
  // Providers and agents differ on whether earlier thinking is sent and counted: the rule that
  // explains the reported figures clearly better wins; otherwise the documented one.
  const alternative = reconcileUnder(prepared, contextPlan(prepared, other), options)
  const score = (r: Reconciliation) =>
    (r.medianAbsError ?? 1) + (r.p90AbsError ?? 1) + r.dropped / Math.max(1, r.figures.length)
  return score(alternative) < 0.8 * score(documented) ? alternative : documented
}

function reconcileUnder(
  prepared: Prepared,
  plan: ContextPlan,
  options: ReconcileOptions,
): Reconciliation {
  const { messages } = prepared.conversation
  const visible = visibleContexts(prepared, plan)
  const ignored: IgnoredCall[] = []
  const points: FitPoint[] = []
  const reportedOf: (number | undefined)[] = []
  let reportedBy: string | null = null
  // A transcript we compacted before (its record re-applied on import) still carries the original
  // usage: from the first place we changed, the reported figures describe content it no longer has.
  // A recorded `changedFrom` is the first message after a drop: its own call already saw the
  // changed context, so it is stale too; a compacted message's own call saw the original.
  const compacted = firstCompacted(messages)
  const dropped = prepared.conversation.meta.carriedAccounting?.changedFrom ?? Infinity
  const changedFrom = Math.min(compacted, dropped)
  visible.forEach((v, call) => {
    const m = messages[v.index] as Message
    const stale = v.index > compacted || v.index >= dropped
    const problem =
      stale && m.usage
        ? `context changed by an earlier compaction of ours (from message ${changedFrom}): the reported figure describes the original`
        : usageProblem(m.usage)
    if (problem) {
      // Calls with no usage at all are common (API captures, aider): counted, not listed one by one.
      if (m.usage) ignored.push({ call, index: v.index, why: problem })
      reportedOf.push(undefined)
      return
    }
    const reported = m.usage?.contextTokens as number
    reportedBy ??= m.usage?.source ?? null
    reportedOf.push(reported)
    if (options.fitOn && !options.fitOn(call)) return
    points.push({
      call,
      kind: v.thread === 0 ? 0 : 1,
      thread: v.thread,
      restarted: v.upstreamCompaction,
      visible: v.tokens,
      reported,
    })
  })

  const fixedScale = fixedScaleFor(prepared, plan)
  // Without a fit our own count stands (scale 1), labelled as such: a per-family guess would be a
  // figure nobody measured for this transcript.
  const defaultScale = fixedScale ?? 1
  const fitted: FitResult | null =
    points.length >= MIN_CALLS_TO_FIT
      ? fitPrefixScale(points, {
          defaultScale,
          ...(fixedScale !== undefined ? { fixedScale } : {}),
        })
      : null
  for (const o of fitted?.outliers ?? [])
    ignored.push({ call: o.call, index: (visible[o.call] as { index: number }).index, why: o.why })
  ignored.sort((a, b) => a.call - b.call)

  const o = options.overrides ?? {}
  const scale = o.scale ?? fitted?.scale ?? defaultScale
  const scaleFrom: Reconciliation['scaleFrom'] =
    o.scale !== undefined
      ? 'override'
      : fitted?.scaleFitted
        ? 'fitted'
        : fixedScale !== undefined
          ? 'fixed'
          : 'default'
  const mainPrefix =
    o.prefixTokens ?? finite(fitted?.prefixByKind[0]) ?? finite(fitted?.prefixByKind[1]) ?? 0
  const subPrefix = o.prefixTokens ?? finite(fitted?.prefixByKind[1]) ?? mainPrefix
  const steps = o.prefixTokens !== undefined ? [] : (fitted?.steps ?? [])
  const prefixFrom: Reconciliation['prefixFrom'] =
    o.prefixTokens !== undefined ? 'override' : fitted ? 'fitted' : 'default'

  const figures: CallFigure[] = mapItems(visible, (v, call) => {
    const kind = v.thread === 0 ? 0 : 1
    let prefix = kind === 0 ? mainPrefix : subPrefix
    for (const s of steps) if (s.kind === kind && call >= s.fromCall) prefix = s.prefixTokens
    prefix = Math.round(prefix)
    const estimate = Math.round(prefix + scale * v.tokens)
    const reported = reportedOf[call]
    const m = messages[v.index] as Message
    return {
      index: v.index,
      messageId: m.id,
      thread: plan.threads[v.thread] ?? 'main',
      visible: v.tokens,
      prefix,
      estimate,
      ...(reported !== undefined ? { reported, residual: (estimate - reported) / reported } : {}),
      ...(v.upstreamCompaction ? { upstreamCompaction: true } : {}),
    }
  })
  const outlierCalls = new Set((fitted?.outliers ?? []).map((x) => x.call))
  const errors = figures
    .filter((f, call) => f.residual !== undefined && !outlierCalls.has(call))
    .map((f) => Math.abs(f.residual as number))
  const used = fitted ? fitted.used.length : 0
  const withUsage = reportedOf.filter((r) => r !== undefined).length
  const source = fitted || o.prefixTokens !== undefined ? 'reconciled' : 'estimated'
  return {
    source: fitted
      ? 'reconciled'
      : source === 'reconciled' && withUsage > 0
        ? 'reconciled'
        : 'estimated',
    reportedBy,
    provider: plan.rules.provider,
    rules: plan.rules.why,
    calls: used,
    dropped: ignored.length,
    ignored,
    prefixTokens: Math.round(mainPrefix),
    ...(plan.threads.length > 1 ? { subagentPrefixTokens: Math.round(subPrefix) } : {}),
    scale,
    prefixFrom,
    scaleFrom,
    steps: steps.map((s) => ({
      fromIndex: (visible[s.fromCall] as { index: number }).index,
      thread: s.kind === 0 ? ('main' as const) : ('subagent' as const),
      prefixTokens: Math.round(s.prefixTokens),
    })),
    medianAbsError: quantile(errors, 0.5),
    p90AbsError: quantile(errors, 0.9),
    flagged: figures
      .filter((f) => f.residual !== undefined && Math.abs(f.residual) > FLAG_RESIDUAL)
      .map((f) => f.index),
    figures,
    summary: summarize(
      fitted,
      withUsage,
      points.length,
      reportedBy,
      scale,
      scaleFrom,
      mainPrefix,
      prefixFrom,
    ),
  }
}

function finite(n: number | undefined): number | undefined {
  return n !== undefined && Number.isFinite(n) ? n : undefined
}

/** Index of the first message a compaction of ours changed (a summary, a stub, a trim), or ∞. */
function firstCompacted(messages: readonly Message[]): number {
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i] as Message
    if (m.summaryOf || m.parts.some((p) => p.meta?.compactedBy !== undefined)) return i
  }
  return Infinity
}

/** We ship OpenAI's o200k vocabulary: counts of OpenAI calls need no scale. */
function fixedScaleFor(prepared: Prepared, plan: ContextPlan): number | undefined {
  return plan.rules.provider === 'openai' &&
    prepared.counter.id === 'o200k_base' &&
    prepared.counter.exact
    ? 1
    : undefined
}

/**
 * Quantile with linear interpolation between order statistics (the common default, as in
 * numpy and R type 7); null for no values.
 */
export function quantile(values: readonly number[], q: number): number | null {
  if (values.length === 0) return null
  const s = [...values].sort((a, b) => a - b)
  const at = Math.min(1, Math.max(0, q)) * (s.length - 1)
  const lo = Math.floor(at)
  const hi = Math.ceil(at)
  return (s[lo] as number) + ((s[hi] as number) - (s[lo] as number)) * (at - lo)
}

function summarize(
  fitted: FitResult | null,
  withUsage: number,
  fitPoints: number,
  reportedBy: string | null,
  scale: number,
  scaleFrom: Reconciliation['scaleFrom'],
  prefix: number,
  prefixFrom: Reconciliation['prefixFrom'],
): string {
  const s = `scale ${scale.toFixed(3)} (${scaleFrom})`
  const p = `hidden prefix ${Math.round(prefix)} tokens (${prefixFrom})`
  if (fitted)
    return `fitted on ${fitted.used.length} of ${withUsage} calls with reported usage (${reportedBy}): ${p}, ${s}`
  if (withUsage > 0)
    return `only ${fitPoints} call${fitPoints === 1 ? '' : 's'} with reported usage: too few to fit; ${p}, ${s}`
  return `no usage reported in this transcript: ${p}, ${s} — enter the hidden prefix if you know it`
}
