/**
 * When each request of the `RequestMap` runs and when its answer went stale: the policy between
 * a transport (src/worker: ids, cancels, messages) and the `Session`. Requests on the loaded
 * conversation wait for the exact count, except the run asked right after a load, which prices
 * with the estimate so the first budget paints before the count (issue 14e); a request is stale
 * once another conversation loads or (when it waited for the count) the counter changes; the
 * replay is computed in slices so a newer edit waits a few milliseconds at most.
 */
import { now as clockNow } from './clock.ts'
import {
  RUN_REQUEST_PHASES as RUN_PHASES,
  type Progress,
  type RequestContext,
  type RequestHandlers,
  type Reply,
  type RequestKind,
  type RequestMap,
} from './requests.ts'
import { replayTransferables, transferablesOf } from './run.ts'
import type { Outcome, Session } from './session.ts'
import { LOAD_PHASES } from './types.ts'

/** How long the replay computes between two looks at the message queue (ms). */
export const REPLAY_SLICE_MS = 8
/** Replay progress is posted at most this often: each message re-renders the UI's progress bar. */
export const REPLAY_PROGRESS_MS = 100

const STALE: Outcome<never> = { kind: 'stale' }

const phase = <P extends string>(phases: readonly P[], p: P): Progress<P> => ({
  phase: p,
  done: phases.indexOf(p),
  total: phases.length - 1,
})

/**
 * A `(done, total)` checkpoint for a long loop that looks at the queue only every `sliceMs`:
 * pausing at every step would cost more than the steps. Progress goes out at most every
 * `progressMs`. `go()` adds a condition of the caller's (e.g. the run it replays is still the latest).
 */
export function slicedCheckpoint(
  ctx: RequestContext,
  options: { readonly sliceMs: number; readonly progressMs: number; readonly now?: () => number },
  go: () => boolean = () => true,
): (done: number, total: number) => Promise<boolean> {
  const now = options.now ?? clockNow
  let sliceStart = now()
  let posted = Number.NEGATIVE_INFINITY
  return async (done, total) => {
    if (now() - sliceStart < options.sliceMs) return ctx.live() && go()
    const report = now() - posted >= options.progressMs
    const live = (await ctx.checkpoint(report ? { done, total } : undefined)) && go()
    if (report) posted = now()
    sliceStart = now()
    return live
  }
}

/** The session's request handlers, with the waits and staleness above; `now` times the slices. */
export function scheduleSession(
  session: Session,
  now: () => number = clockNow,
): RequestHandlers<RequestMap> {
  /** The count under way; requests on the conversation wait for it so they price exactly. */
  let counting: Promise<unknown> = Promise.resolve()
  /**
   * The runs under way. A count waits for them: counting a large transcript exactly takes as
   * long as a run, and the run asked right after a load prices with the estimate. Done the
   * other way round, that run queued behind the count.
   */
  let runs: Promise<unknown> = Promise.resolve()

  /**
   * A request on the loaded conversation: wait for any count, then stale once another loads or
   * the counter changes. `onEstimate`: start at once on whichever counter is in, and stay live
   * when the exact count lands; the UI runs again on it (cancelling this one).
   */
  const onConversation =
    <P, T>(
      work: (params: P, ctx: RequestContext) => Promise<Outcome<T>> | Outcome<T>,
      onEstimate = false,
    ) =>
    async (params: P, ctx: RequestContext): Promise<Outcome<T>> => {
      if (!onEstimate) await counting
      const conv = session.conversation
      const counter = session.counter
      const live = () =>
        ctx.live() && session.conversation === conv && (onEstimate || session.counter === counter)
      if (!live()) return STALE
      const checkpoint = async (progress?: Progress<string>) => {
        if (!(await ctx.checkpoint()) || !live()) return false
        if (progress) ctx.progress(progress)
        return true
      }
      return work(params, { ...ctx, live, checkpoint })
    }

  return {
    load: ({ bytes, ...p }, ctx) => {
      ctx.progress(phase(LOAD_PHASES, 'parse'))
      // The file's conversations are listed (and item N loaded, if asked) for the picker.
      const input = { ...p, ...(bytes ? { bytes: new Uint8Array(bytes) } : {}), listItems: true }
      return { kind: 'ok', value: session.load(input) }
    },
    count: (p, ctx) => {
      ctx.progress(phase(LOAD_PHASES, 'tokenizer'))
      // The client asks for the count first, then the run: let that run (queued behind this
      // message) start, then wait for it.
      const work = ctx
        .checkpoint()
        .then(() => runs)
        .then(() => session.count(p.tokenizer, () => ctx.live()))
        .then((outcome) => {
          if (outcome.kind === 'ok') ctx.progress(phase(LOAD_PHASES, 'done'))
          return outcome
        })
      counting = work.catch(() => undefined)
      return work
    },
    run: (p, ctx) => {
      ctx.progress(phase(RUN_PHASES, 'wait'))
      const work = onConversation<RequestMap['run']['params'], RequestMap['run']['reply']>(
        (params, c) =>
          session.run(
            params.config,
            params.preset,
            (ph) => c.checkpoint(ph === 'replay' ? undefined : phase(RUN_PHASES, ph)),
            // The budget paints without the risk and after the first round; the UI asks for
            // the idempotence round (`settle`) and the risk right after.
            { deferRisk: true, settleLater: true },
          ),
        true,
      )(p, ctx)
      runs = Promise.all([runs, work]).catch(() => undefined)
      return work
    },
    settle: onConversation(() => session.settle(), true),
    risk: onConversation(() => session.risk(), true),
    replay: onConversation((_p, ctx) => {
      const record = session.lastRun
      const slices = { sliceMs: REPLAY_SLICE_MS, progressMs: REPLAY_PROGRESS_MS, now }
      return session.replay(slicedCheckpoint(ctx, slices, () => session.lastRun === record))
    }, true),
    // A read of the latest run: no wait for a count under way (its run is on the estimate).
    sentences: onConversation((p) => session.sentences(p.run, p.indices), true),
    detail: onConversation((p) => session.detail(p.groupId, p.maxChars)),
    describe: () => session.describe(),
    sweep: onConversation((p, ctx) =>
      session.sweep(p, (done, total) => ctx.checkpoint({ done, total })),
    ),
    compare: onConversation((p) => session.compare(p.a, p.b)),
    exportConfig: (p) => session.exportConfig(p.config, p.preset, p.target),
    exportTranscript: onConversation(() => session.exportTranscript()),
    exportReport: onConversation((p) => session.exportReport(p.format, p.columns)),
    importConfig: (p) => session.importConfig(p.text),
  }
}

/** Typed arrays a reply owns (the run's group columns, the replay's series): transferred, not copied. */
export function replyTransferables(kind: RequestKind, reply: unknown): ArrayBuffer[] {
  if (kind === 'run') return transferablesOf(reply as Reply<'run'>)
  if (kind === 'settle') {
    const settled = reply as Reply<'settle'>
    return settled.kind === 'changed' ? transferablesOf(settled.summary) : []
  }
  if (kind === 'replay') return replayTransferables(reply as Reply<'replay'>)
  return []
}
