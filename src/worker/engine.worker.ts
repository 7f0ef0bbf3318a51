/**
 * The engine worker: transport only. It holds one `Session` (src/session), turns each request of
 * the `RequestMap` into a session call, and owns what a thread boundary needs — request ids,
 * cancels, staleness between phases, progress messages, and transferring typed arrays.
 */
import { replayTransferables, transferablesOf } from '../session/run.ts'
import { Session, type Outcome } from '../session/session.ts'
import {
  LOAD_PHASES,
  PROTOCOL_VERSION,
  RUN_PHASES,
  type FromWorker,
  type Params,
  type Progress,
  type Reply,
  type RequestKind,
  type ToWorker,
} from './protocol.ts'

/** The part of the worker global we use (checks under the WebWorker lib and a DOM-lib program). */
interface WorkerScope {
  postMessage(message: FromWorker, transfer?: ArrayBuffer[]): void
  onmessage: ((event: MessageEvent<ToWorker>) => void) | null
}
const scope = globalThis as unknown as WorkerScope

const session = new Session((bytes) => new TextDecoder('utf-8', { fatal: true }).decode(bytes))
/** The count under way; requests on the conversation wait for it so they price exactly. */
let counting: Promise<unknown> = Promise.resolve()
/**
 * The runs under way. A count waits for them: counting a large transcript exactly takes as long
 * as a run, and the run asked right after a load prices with the estimate so the first budget
 * paints before the count (issue 14e). Done the other way round, that run queued behind the count.
 */
let runs: Promise<unknown> = Promise.resolve()
/** Requests the client abandoned (superseded or cancelled) and that are still running. */
const running = new Set<number>()
const cancelled = new Set<number>()
const STALE: Outcome<never> = { kind: 'stale' }

/** How long the replay computes between two looks at the message queue (ms). */
const REPLAY_SLICE_MS = 8
/** Replay progress is posted at most this often: each message re-renders the UI's progress bar. */
const REPLAY_PROGRESS_MS = 100

/** A macrotask break so a queued cancel (or newer request) is seen before more heavy work. */
function yieldToQueue(): Promise<void> {
  // A message to ourselves queues behind any waiting message, without setTimeout's 4 ms clamp.
  if (typeof MessageChannel === 'undefined') return new Promise((r) => setTimeout(r, 0))
  return new Promise((resolve) => {
    const channel = new MessageChannel()
    channel.port1.onmessage = () => {
      channel.port1.close()
      resolve()
    }
    channel.port2.postMessage(null)
  })
}

interface Context {
  live(): boolean
  progress(progress: Progress<string>): void
  /** Yield to the queue; false once the request (or the conversation it ran on) is stale. */
  checkpoint(progress?: Progress<string>): Promise<boolean>
}

type Handler<K extends RequestKind> = (
  params: Params<K>,
  ctx: Context,
) => Outcome<Reply<K>> | Promise<Outcome<Reply<K>>>

const phase = <P extends string>(phases: readonly P[], p: P): Progress<P> => ({
  phase: p,
  done: phases.indexOf(p),
  total: phases.length - 1,
})

/**
 * A request on the loaded conversation: wait for any count, then stale once another loads or the
 * counter changes. `onEstimate` (estimate-first, issue 14e): start at once on whichever counter is
 * in, and stay live when the exact count lands; the UI runs again on it (cancelling this one).
 */
function onConversation<K extends RequestKind>(
  work: (params: Params<K>, ctx: Context) => Promise<Outcome<Reply<K>>> | Outcome<Reply<K>>,
  onEstimate = false,
): Handler<K> {
  return async (params, ctx) => {
    if (!onEstimate) await counting
    const conv = session.conversation
    const counter = session.counter
    const live = () =>
      ctx.live() && session.conversation === conv && (onEstimate || session.counter === counter)
    if (!live()) return STALE
    const checkpoint = async (progress?: Progress<string>) => {
      await yieldToQueue()
      if (!live()) return false
      if (progress) ctx.progress(progress)
      return true
    }
    return work(params, { ...ctx, live, checkpoint })
  }
}

const HANDLERS: { readonly [K in RequestKind]: Handler<K> } = {
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
    const work = yieldToQueue()
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
    const work = onConversation<'run'>(
      (params, c) =>
        session.run(
          params.config,
          params.preset,
          (ph) => c.checkpoint(ph === 'replay' ? undefined : phase(RUN_PHASES, ph)),
          // The budget paints without the risk and after the first round; the UI asks for the
          // idempotence round (`settle`) and the risk right after.
          { deferRisk: true, settleLater: true },
        ),
      true,
    )(p, ctx)
    runs = Promise.all([runs, work]).catch(() => undefined)
    return work
  },
  settle: onConversation<'settle'>(() => session.settle(), true),
  risk: onConversation<'risk'>(() => session.risk(), true),
  replay: onConversation<'replay'>(async (_p, ctx) => {
    const record = session.lastRun
    let sliceStart = Date.now()
    let posted = 0
    return session.replay(async (done, total) => {
      // Pausing at every call would cost more than the calls: a few ms keeps an edit waiting
      // at most that long.
      if (Date.now() - sliceStart < REPLAY_SLICE_MS) return true
      const report = Date.now() - posted >= REPLAY_PROGRESS_MS
      const go =
        (await ctx.checkpoint(report ? { done, total } : undefined)) && session.lastRun === record
      if (report) posted = Date.now()
      sliceStart = Date.now()
      return go
    })
  }, true),
  detail: onConversation<'detail'>((p) => session.detail(p.groupId, p.maxChars)),
  describe: () => session.describe(),
  sweep: onConversation<'sweep'>((p, ctx) =>
    session.sweep(p, (done, total) => ctx.checkpoint({ done, total })),
  ),
  compare: onConversation<'compare'>((p) => session.compare(p.a, p.b)),
  exportConfig: (p) => session.exportConfig(p.config, p.preset, p.target),
  exportTranscript: onConversation<'exportTranscript'>(() => session.exportTranscript()),
  exportReport: onConversation<'exportReport'>((p) => session.exportReport(p.format, p.columns)),
  importConfig: (p) => session.importConfig(p.text),
}

/** Typed arrays the reply owns: transferred, so the UI thread gets them without a copy. */
function transferOf(kind: RequestKind, reply: unknown): ArrayBuffer[] {
  if (kind === 'run') return transferablesOf(reply as Reply<'run'>)
  if (kind === 'settle') {
    const settled = reply as Reply<'settle'>
    return settled.kind === 'changed' ? transferablesOf(settled.summary) : []
  }
  if (kind === 'replay') return replayTransferables(reply as Reply<'replay'>)
  return []
}

function post(message: FromWorker, transfer?: ArrayBuffer[]): void {
  if (transfer && transfer.length > 0) scope.postMessage(message, transfer)
  else scope.postMessage(message)
}

async function handle<K extends RequestKind>(
  id: number,
  kind: K,
  params: Params<K>,
): Promise<void> {
  const live = () => !cancelled.has(id)
  const ctx: Context = {
    live,
    progress: (progress) => post({ kind: 'progress', id, progress }),
    checkpoint: async (progress) => {
      await yieldToQueue()
      if (!live()) return false
      if (progress) post({ kind: 'progress', id, progress })
      return true
    },
  }
  const handler = HANDLERS[kind] as Handler<K>
  const outcome = await handler(params, ctx)
  if (!live()) return
  switch (outcome.kind) {
    case 'ok': {
      const reply = {
        kind: 'reply',
        id,
        request: kind,
        protocol: PROTOCOL_VERSION,
        reply: outcome.value,
      }
      post(reply as FromWorker, transferOf(kind, outcome.value))
      return
    }
    case 'invalid':
      post({ kind: 'invalid', id, issues: outcome.issues })
      return
    case 'failed':
      post({ kind: 'error', id, message: outcome.message })
      return
    case 'stale':
      return
    default: {
      const unknownOutcome: never = outcome
      return unknownOutcome
    }
  }
}

scope.onmessage = (event) => {
  const msg = event.data
  if (msg.kind === 'cancel') {
    if (running.has(msg.id)) cancelled.add(msg.id)
    return
  }
  running.add(msg.id)
  handle(msg.id, msg.request, msg.params)
    .catch((error: unknown) => {
      const message = error instanceof Error ? error.message : String(error)
      if (!cancelled.has(msg.id)) post({ kind: 'error', id: msg.id, message })
    })
    .finally(() => {
      running.delete(msg.id)
      cancelled.delete(msg.id)
    })
}
