/**
 * A step's changes, recorded once and played back when the step runs again on the same state.
 *
 * A re-plan (every edit in the app, every benchmark run) runs the same steps over the same prepared
 * conversation. A step that runs first sees the view exactly as it was last time, and one that
 * runs after recorded steps only sees what they did again; with the same parsed params, the same
 * protections and the same accounting, a deterministic strategy then makes exactly the same calls
 * on its context (`skip`, `replace`, `exclude`, …) with the same arguments. The scan that found
 * them — thousands of parts looked up, keyed, priced and worded — is what this saves: the calls
 * are made again on the new context, which checks protections, prices and records the decisions
 * itself, so the decisions are its own and not copies.
 *
 * "The same state" is decided by identity, never by comparing contents: the prepared conversation,
 * the parsed params (stable per params object, see the pipeline's parse cache), the protections
 * and the accounting (both cached per prepared conversation and config), the limit, the window
 * figures and the summariser; and the view either has no change at all (its undo log is empty) or
 * has exactly the changes of the recorded steps before this one ({@link lineage}). Replay mode
 * (`recordNonChanges` off) keeps incremental state of its own in some strategies, so it always
 * runs the strategy.
 */
import type { StrategyContext } from '../compaction/context.ts'
import type { CallAccounting } from '../compaction/ledger.ts'
import type { Prepared } from '../compaction/prepared.ts'
import type { Protections } from '../compaction/protect.ts'
import type { Summarizer } from '../summarize/types.ts'
import type { WorkingView } from '../compaction/view.ts'

/** The context's methods that change the view or record a decision: what a step "does". */
type Action = 'skip' | 'replace' | 'exclude' | 'excludeUnprotected' | 'insert' | 'protect'
const ACTIONS: readonly Action[] = [
  'skip',
  'replace',
  'exclude',
  'excludeUnprotected',
  'insert',
  'protect',
]

interface Recording {
  readonly params: object
  /** The recording of the step that ran before this one on the same view, or null (untouched). */
  readonly after: Recording | null
  readonly protections: Protections
  readonly accounting: CallAccounting
  readonly summarizer: Summarizer | undefined
  readonly limit: number
  readonly step: number
  readonly contextTokens: number
  readonly reservedOutput: number
  readonly buffer: number
  readonly usable: number
  /** The calls in order: which method, with which arguments. */
  readonly actions: readonly Action[]
  readonly args: readonly (readonly unknown[])[]
}

/** The last recording per (prepared conversation, strategy id): one config's worth of memory. */
const recordings = new WeakMap<Prepared, Map<string, Recording>>()

/**
 * The recorded step whose changes are the last ones made to a view, with the undo-log length just
 * after them: when a later step finds the log still that long, nothing else changed the view since.
 */
const lineage = new WeakMap<WorkingView, { readonly mark: number; readonly last: Recording }>()

/**
 * Run `run` on `ctx`, or play back what it did last time on the same state (see the module
 * comment). `run` must be a deterministic function of the context and `params`, must act only
 * through the context's methods, and must not change an argument after passing it.
 */
export function runRecorded<P extends object>(
  ctx: StrategyContext,
  params: P,
  run: (ctx: StrategyContext, params: P) => void,
): void {
  const view = ctx.view
  const mark = view.checkpoint()
  const line = lineage.get(view)
  const after = mark === 0 ? null : line?.mark === mark ? line.last : undefined
  if (!ctx.recordNonChanges || after === undefined) {
    run(ctx, params)
    return
  }
  const hit = recordings.get(view.prepared)?.get(ctx.strategy)
  if (hit && matches(hit, ctx, params, after)) {
    playBack(ctx, hit)
    lineage.set(view, { mark: view.checkpoint(), last: hit })
    return
  }
  const actions: Action[] = []
  const args: (readonly unknown[])[] = []
  run(recorder(ctx, actions, args), params)
  const made: Recording = {
    params,
    after,
    protections: ctx.protections,
    accounting: view.accounting,
    summarizer: ctx.summarizer,
    limit: view.limit,
    step: ctx.step,
    contextTokens: ctx.window.contextTokens,
    reservedOutput: ctx.window.reservedOutput,
    buffer: ctx.window.buffer,
    usable: ctx.window.usable,
    actions,
    args,
  }
  let byStrategy = recordings.get(view.prepared)
  if (!byStrategy) {
    byStrategy = new Map()
    recordings.set(view.prepared, byStrategy)
  }
  byStrategy.set(ctx.strategy, made)
  lineage.set(view, { mark: view.checkpoint(), last: made })
}

function matches(r: Recording, ctx: StrategyContext, params: object, after: Recording | null) {
  const w = ctx.window
  return (
    r.params === params &&
    r.after === after &&
    r.protections === ctx.protections &&
    r.accounting === ctx.view.accounting &&
    r.summarizer === ctx.summarizer &&
    r.limit === ctx.view.limit &&
    r.step === ctx.step &&
    r.contextTokens === w.contextTokens &&
    r.reservedOutput === w.reservedOutput &&
    r.buffer === w.buffer &&
    r.usable === w.usable
  )
}

/** The recorded calls, made again on this context (it checks, prices and records them itself). */
function playBack(ctx: StrategyContext, r: Recording): void {
  const { actions, args } = r
  for (let i = 0; i < actions.length; i++) {
    const a = args[i] as readonly unknown[]
    switch (actions[i]) {
      case 'skip':
        ctx.skip(...(a as Parameters<StrategyContext['skip']>))
        break
      case 'replace':
        ctx.replace(...(a as Parameters<StrategyContext['replace']>))
        break
      case 'exclude':
        ctx.exclude(...(a as Parameters<StrategyContext['exclude']>))
        break
      case 'excludeUnprotected':
        ctx.excludeUnprotected(...(a as Parameters<StrategyContext['excludeUnprotected']>))
        break
      case 'insert':
        ctx.insert(...(a as Parameters<StrategyContext['insert']>))
        break
      case 'protect':
        ctx.protect(...(a as Parameters<StrategyContext['protect']>))
        break
    }
  }
}

/**
 * The context as the strategy sees it, with every action also written down. Everything else
 * (the view, pairing, protections, reads) is the context's own, through the prototype.
 */
function recorder(
  ctx: StrategyContext,
  actions: Action[],
  args: (readonly unknown[])[],
): StrategyContext {
  const rec = Object.create(ctx) as StrategyContext
  for (const action of ACTIONS) {
    const method = ctx[action] as (...a: unknown[]) => unknown
    Object.defineProperty(rec, action, {
      value: (...a: unknown[]) => {
        actions.push(action)
        args.push(a)
        return method.apply(ctx, a)
      },
    })
  }
  return rec
}
