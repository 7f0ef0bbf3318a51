import { StrategyContext, type UsableWindow } from './context.ts'
import { runFallback } from './fallback.ts'
import { computeProtections, type Protections } from './protect.ts'
import type { AnyStrategy } from './strategy.ts'
import { evaluateTrigger, measure, targetTokens } from './triggers.ts'
import type { Decision, EngineConfig, EngineDeps, WindowConfig } from './types.ts'
import type { WorkingView } from './view.ts'

export type StepStatus =
  | 'ran'
  | 'disabled'
  | 'not_triggered'
  | 'target_reached'
  | 'failed_open'
  | 'unknown_strategy'
  | 'invalid_params'

export interface StepReport {
  /** Pass over the pipeline (0 first; later passes run only while the previous one changed something). */
  readonly pass: number
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
  readonly steps: readonly StepReport[]
  readonly tokensBefore: number
  readonly tokensAfter: number
  readonly window: UsableWindow
  readonly fallbackRan: boolean
}

export function usableWindow(w: WindowConfig): UsableWindow {
  return { ...w, usable: Math.max(0, w.contextTokens - w.reservedOutput - w.buffer) }
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
): Promise<PipelineOutcome> {
  const window = usableWindow(config.window)
  const decisions: Decision[] = []
  const steps: StepReport[] = []
  const tokensBefore = view.totalTokens
  let protections: Protections | null = null
  const protect = () => (protections ??= computeProtections(view, config.protections))
  let fallbackRan = false
  const failed = new Set<number>()
  // A later step can free what an earlier one had to keep (a stub dropped with its group frees
  // the newest copy it pointed to), so the pipeline runs again until a pass changes nothing: the
  // result is a fixed point, and running the config on its projection changes nothing more.
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const before = decisions.length
    const ran = await runPass(
      view,
      config,
      deps,
      registry,
      window,
      protect,
      pass,
      decisions,
      steps,
      failed,
    )
    fallbackRan = ran || fallbackRan
    if (!decisions.slice(before).some(changes)) break
  }
  return { decisions, steps, tokensBefore, tokensAfter: view.totalTokens, window, fallbackRan }
}

const MAX_PASSES = 4
const changes = (d: Decision) =>
  d.kind === 'exclude' || d.kind === 'stub' || d.kind === 'trim' || d.kind === 'insert'

async function runPass(
  view: WorkingView,
  config: EngineConfig,
  deps: EngineDeps,
  registry: StrategyRegistry,
  window: UsableWindow,
  protect: () => Protections,
  pass: number,
  decisions: Decision[],
  steps: StepReport[],
  failed: Set<number>,
): Promise<boolean> {
  let stopped = false
  for (let i = 0; i < config.pipeline.length; i++) {
    const step = config.pipeline[i]
    if (!step) continue
    const before = view.totalTokens
    const report = (status: StepStatus, why: string, count = 0) =>
      steps.push({
        pass,
        index: i,
        strategy: step.strategy,
        status,
        why,
        tokensBefore: before,
        tokensAfter: view.totalTokens,
        decisions: count,
      })
    if (!step.enabled) {
      report('disabled', 'disabled in the config')
      continue
    }
    if (stopped) {
      report('target_reached', 'an earlier step brought the context under its target')
      continue
    }
    if (failed.has(i)) {
      report('failed_open', 'failed in an earlier pass; not run again')
      continue
    }
    const strategy = registry.get(step.strategy)
    if (!strategy) {
      report('unknown_strategy', `no strategy with id ${step.strategy}`)
      continue
    }
    const trigger = evaluateTrigger(step.trigger, measure(view, window.usable))
    if (!trigger.fired) {
      report('not_triggered', trigger.why)
      continue
    }
    const parsed = strategy.schema.safeParse(step.params)
    if (!parsed.success) {
      const message = parsed.error.issues
        .map((e) => `${e.path.join('.') || 'params'}: ${e.message}`)
        .join('; ')
      if (pass === 0)
        decisions.push(
          failedOpen(step.strategy, i, `invalid parameters: ${message}`, view.totalTokens),
        )
      report('invalid_params', message, pass === 0 ? 1 : 0)
      continue
    }
    const checkpoint = view.checkpoint()
    const ctx = new StrategyContext(view, protect(), strategy.id, i, window, deps.summarizer)
    try {
      await strategy.run(ctx, parsed.data)
      // Later passes only report what changed: repeating every "kept because…" would be noise.
      const own = pass === 0 ? ctx.decisions : ctx.decisions.filter(changes)
      decisions.push(...own)
      report('ran', trigger.why, own.length)
    } catch (error) {
      // Fail open: undo whatever the step changed, record why, keep going.
      view.rollback(checkpoint)
      failed.add(i)
      const message = error instanceof Error ? error.message : String(error)
      decisions.push(failedOpen(step.strategy, i, message, view.totalTokens))
      report('failed_open', message, 1)
    }
    if (step.target && view.totalTokens < targetTokens(step.target, window.usable)) stopped = true
  }

  if (!config.fallback.enabled) return false
  const budget = config.fallback.target
    ? targetTokens(config.fallback.target, window.usable)
    : window.usable
  if (view.totalTokens <= budget) return false
  const ctx = new StrategyContext(view, protect(), 'fallback', -1, window, deps.summarizer)
  runFallback(ctx, budget, config.fallback.strict)
  decisions.push(...(pass === 0 ? ctx.decisions : ctx.decisions.filter(changes)))
  return true
}

function failedOpen(strategy: string, step: number, error: string, tokens: number): Decision {
  return {
    kind: 'failed_open',
    strategy,
    step,
    reason: 'failed_open',
    detail: `${strategy} failed and was skipped; the conversation is unchanged by it: ${error}`,
    groupId: '',
    tokensBefore: tokens,
    tokensAfter: tokens,
    error,
  }
}
