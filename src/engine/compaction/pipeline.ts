import { StrategyContext, type UsableWindow } from './context.ts'
import { createStepRecords } from '../strategies/step-records.ts'
import { runFallback } from './fallback.ts'
import { computeProtections, type Protections } from './protect.ts'
import type { AnyStrategy } from './strategy.ts'
import { evaluateTrigger, measure, targetTokens } from './triggers.ts'
import type { Decision, EngineConfig, EngineDeps, WindowConfig } from './types.ts'
import type { WorkingView } from './view.ts'
import { withFields } from '../objects.ts'

export type StepStatus =
  | 'ran'
  | 'disabled'
  | 'not_triggered'
  | 'target_reached'
  | 'failed_open'
  | 'unknown_strategy'
  | 'invalid_params'

export interface StepReport {
  readonly index: number
  readonly strategy: string
  readonly status: StepStatus
  /** Why it ran or did not (trigger evaluation, error message…). */
  readonly why: string
  readonly tokensBefore: number
  readonly tokensAfter: number
  /** Decisions this step recorded (including protected/skip ones). */
  readonly decisions: number
}

export interface PipelineOutcome {
  readonly decisions: readonly Decision[]
  /**
   * What each step did and why. Empty when non-changes are not recorded (`recordNonChanges:
   * false`, a replay's calls): nobody reads them there, and each call worded a sentence per step.
   */
  readonly steps: readonly StepReport[]
  readonly tokensBefore: number
  readonly tokensAfter: number
  readonly window: UsableWindow
  readonly fallbackRan: boolean
}

export function usableWindow(w: WindowConfig): UsableWindow {
  return withFields(w, { usable: Math.max(0, w.contextTokens - w.reservedOutput - w.buffer) })
}

export type StrategyRegistry = ReadonlyMap<string, AnyStrategy>

/**
 * Run the configured steps in order over `view` (SPEC §5): each step runs only when enabled and
 * its trigger fires; a step that throws is rolled back and recorded as `failed_open` while the
 * rest still runs; once the context is under a step's target the remaining steps are skipped;
 * the optional final fallback then drops oldest groups until under budget.
 */
export async function runPipeline(
  view: WorkingView,
  config: EngineConfig,
  deps: EngineDeps,
  registry: StrategyRegistry,
  options: { recordNonChanges?: boolean } = {},
): Promise<PipelineOutcome> {
  const window = usableWindow(config.window)
  // Each step's own list, joined once at the end: appending every step's decisions to a growing
  // array copied thousands of them per re-plan, and one step's list is most often the only one.
  const lists: (readonly Decision[])[] = []
  const steps: StepReport[] = []
  const tokensBefore = view.contextTokens
  let protections: Protections | null = null
  const protect = () => (protections ??= computeProtections(view, config.protections))
  // One pass: `compact()` re-runs the config on its projection until nothing changes, which is
  // what settles interactions between steps; replay keeps its view between calls instead.
  const fallbackRan = await runPass(
    view,
    config,
    deps,
    registry,
    window,
    protect,
    lists,
    steps,
    options.recordNonChanges !== false,
  )
  const decisions = joined(lists)
  return { decisions, steps, tokensBefore, tokensAfter: view.contextTokens, window, fallbackRan }
}

/**
 * Record one step's outcome. A function, not a closure made per step: the closure rebuilt for
 * every step of every re-plan was compiled 4–7 times per isolate.
 */
function report(
  steps: StepReport[] | null,
  index: number,
  strategy: string,
  tokensBefore: number,
  tokensAfter: number,
  status: StepStatus,
  why: string,
  decisions = 0,
): void {
  steps?.push({ index, strategy, status, why, tokensBefore, tokensAfter, decisions })
}

async function runPass(
  view: WorkingView,
  config: EngineConfig,
  deps: EngineDeps,
  registry: StrategyRegistry,
  window: UsableWindow,
  protect: () => Protections,
  decisions: (readonly Decision[])[],
  reports: StepReport[],
  recordNonChanges: boolean,
): Promise<boolean> {
  // Step reports only where non-changes are recorded (see `PipelineOutcome.steps`).
  const steps = recordNonChanges ? reports : null
  let stopped = false
  for (let i = 0; i < config.pipeline.length; i++) {
    const step = config.pipeline[i]
    if (!step) continue
    const before = view.contextTokens
    if (!step.enabled) {
      report(
        steps,
        i,
        step.strategy,
        before,
        view.contextTokens,
        'disabled',
        'disabled in the config',
      )
      continue
    }
    if (stopped) {
      report(
        steps,
        i,
        step.strategy,
        before,
        view.contextTokens,
        'target_reached',
        'an earlier step brought the context under its target',
      )
      continue
    }
    const strategy = registry.get(step.strategy)
    if (!strategy) {
      report(
        steps,
        i,
        step.strategy,
        before,
        view.contextTokens,
        'unknown_strategy',
        `no strategy with id ${step.strategy}`,
      )
      continue
    }
    const trigger = evaluateTrigger(step.trigger, measure(view, window.usable), steps !== null)
    if (!trigger.fired) {
      report(steps, i, step.strategy, before, view.contextTokens, 'not_triggered', trigger.why)
      continue
    }
    const parsed = parseParams(strategy, step.params)
    if (!parsed.success) {
      const message = parsed.error.issues
        .map((e) => `${e.path.join('.') || 'params'}: ${e.message}`)
        .join('; ')
      decisions.push([
        failedOpen(step.strategy, i, `invalid parameters: ${message}`, view.contextTokens),
      ])
      report(steps, i, step.strategy, before, view.contextTokens, 'invalid_params', message, 1)
      continue
    }
    const checkpoint = view.checkpoint()
    const ctx = new StrategyContext(view, protect(), strategy.id, i, window, deps.summarizer)
    ctx.recordNonChanges = recordNonChanges
    try {
      await strategy.run(ctx, parsed.data)
      if (ctx.decisions.length > 0) decisions.push(ctx.decisions)
      report(
        steps,
        i,
        step.strategy,
        before,
        view.contextTokens,
        'ran',
        trigger.why,
        ctx.decisions.length,
      )
    } catch (error) {
      // Fail open: undo whatever the step changed, record why, keep going.
      view.rollback(checkpoint)
      const message = error instanceof Error ? error.message : String(error)
      decisions.push([failedOpen(step.strategy, i, message, view.contextTokens)])
      report(steps, i, step.strategy, before, view.contextTokens, 'failed_open', message, 1)
    }
    // The step's checkpoint is no longer needed: nothing rolls back past it (see settle).
    view.settle()
    if (step.target && view.contextTokens < targetTokens(step.target, window.usable)) stopped = true
  }

  if (!config.fallback.enabled) return false
  const budget = config.fallback.target
    ? targetTokens(config.fallback.target, window.usable)
    : window.usable
  if (view.contextTokens <= budget) return false
  const ctx = new StrategyContext(view, protect(), 'fallback', -1, window, deps.summarizer)
  ctx.recordNonChanges = recordNonChanges
  const { strict } = config.fallback
  // Played back on a view in the state a record started from (step-records.ts): the fallback
  // reads the view, the protections, the budget and `strict`, nothing else.
  fallbackRecords.run(ctx, FALLBACK, [budget, strict], () => runFallback(ctx, budget, strict))
  if (ctx.decisions.length > 0) decisions.push(ctx.decisions)
  return true
}

/** The fallback's runs (step-records.ts); it has no params, so one key object stands for them. */
const fallbackRecords = createStepRecords()
const FALLBACK = {}

/** The lists one after another (the only one itself: nothing appends to it afterwards). */
function joined(lists: readonly (readonly Decision[])[]): readonly Decision[] {
  if (lists.length === 1) return lists[0] as readonly Decision[]
  let n = 0
  for (const l of lists) n += l.length
  const out = new Array<Decision>(n)
  let k = 0
  for (const l of lists) for (let i = 0; i < l.length; i++) out[k++] = l[i] as Decision
  return out
}

function failedOpen(strategy: string, step: number, error: string, tokens: number): Decision {
  return {
    kind: 'failed_open',
    strategy,
    step,
    reason: 'failed_open',
    sentence: `${strategy} failed and was skipped; the conversation is unchanged by it: ${error}`,
    groupId: '',
    tokensBefore: tokens,
    tokensAfter: tokens,
    error,
  }
}

// Parsing the same params object on every run (each replay point, each round) is wasted work,
// and a stable parsed object lets strategies memoise per configuration.
const parsedParams = new WeakMap<
  object,
  { strategy: AnyStrategy; result: ReturnType<AnyStrategy['schema']['safeParse']> }
>()

function parseParams(strategy: AnyStrategy, params: object) {
  const hit = parsedParams.get(params)
  if (hit && hit.strategy === strategy) return hit.result
  const result = strategy.schema.safeParse(params)
  parsedParams.set(params, { strategy, result })
  return result
}
