/**
 * The engine worker: a thin adapter from protocol messages to the engine and format APIs.
 * It holds no logic of its own beyond sequencing phases and dropping work that became stale.
 */
import { inspectConversation } from '../engine/inspect.ts'
import type { Conversation } from '../engine/model.ts'
import { estimateCounter, loadCounter } from '../engine/tokens/index.ts'
import type { TextCounter, TokenizerId } from '../engine/tokens/types.ts'
import { FORMAT_IDS, importTranscript, importTranscriptBytes } from '../formats/index.ts'
import { previewConversation } from './preview.ts'
import {
  LOAD_PHASES,
  MAX_WARNINGS,
  PROTOCOL_VERSION,
  RUN_PHASES,
  type FromWorker,
  type LoadPhase,
  type RunPhase,
  type ToWorker,
  type ToWorkerOf,
} from './protocol.ts'
import {
  clearRunCache,
  replayRecord,
  replayTransferables,
  runSummary,
  transferablesOf,
  type RunRecord,
} from './run.ts'
import { createSideRequests, type Loaded } from './side-requests.ts'

/**
 * The part of the worker global we use, typed here so this file checks under the WebWorker lib
 * and under a DOM-lib program alike (both declare `MessageEvent`, only one the worker scope).
 */
interface WorkerScope {
  postMessage(message: FromWorker, transfer?: ArrayBuffer[]): void
  onmessage: ((event: MessageEvent<ToWorker>) => void) | null
}
const scope = globalThis as unknown as WorkerScope

/** The parsed conversation of the latest successful load; it never crosses to the UI. */
let conversation: Conversation | null = null
/** The counter runs price with: chars/4 until the load's exact count (or a re-count) is in. */
let counter: TextCounter = estimateCounter
/** The load or re-count under way; a run waits for it so it prices with the exact counter. */
let counting: Promise<void> = Promise.resolve()
/** Id of the newest load: older loads still running are stale and stop at their next phase. */
let latestLoad = 0
/** Id of the newest run: older runs still running are stale and stop at their next phase. */
let latestRun = 0
const cancelled = new Set<number>()
/** The latest finished run on the current conversation (what the detail drawer's "after" shows). */
let lastRun: RunRecord | null = null
/** The preset `lastRun` ran as (reports name it), and the loaded file's name (export file names). */
let lastRunPreset: string | undefined
let loadedFileName: string | undefined

function post(message: FromWorker, transfer?: ArrayBuffer[]): void {
  if (transfer) scope.postMessage(message, transfer)
  else scope.postMessage(message)
}

function progress(id: number, phase: LoadPhase): void {
  const done = LOAD_PHASES.indexOf(phase)
  post({ type: 'progress', id, phase, done, total: LOAD_PHASES.length - 1 })
}

function isLive(id: number): boolean {
  return id === latestLoad && !cancelled.has(id)
}

function runProgress(id: number, phase: RunPhase): void {
  const done = RUN_PHASES.indexOf(phase)
  post({ type: 'runProgress', id, phase, done, total: RUN_PHASES.length - 1 })
}

function counterFor(tokenizer: TokenizerId): Promise<TextCounter> {
  return tokenizer === 'estimate' ? Promise.resolve(estimateCounter) : loadCounter(tokenizer)
}

/** A macrotask break so a `cancel` (or a newer `load`) queued behind us is seen before heavy work. */
function yieldToQueue(): Promise<void> {
  // A message to ourselves is a task queued behind any message already waiting, without the 4 ms
  // minimum that nested setTimeout(0) gets; fall back to setTimeout where MessageChannel is absent.
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

/** How long the replay computes between two looks at the message queue (ms). */
const REPLAY_SLICE_MS = 8

const strictUtf8 = (bytes: Uint8Array): string =>
  new TextDecoder('utf-8', { fatal: true }).decode(bytes)

async function load(msg: ToWorkerOf<'load'>): Promise<void> {
  const { id, fileName, format, item } = msg
  latestLoad = id
  // Cancels of older loads are moot now: `latestLoad` already makes them stale.
  cancelled.clear()
  conversation = null
  counter = estimateCounter
  clearRunCache()
  lastRun = null
  loadedFileName = fileName
  progress(id, 'parse')
  const started = performance.now()
  // Files arrive as transferred bytes: decoding here keeps the UI thread free, and says where
  // a file is not valid UTF-8 (or that it is empty or binary) instead of decoding it silently.
  // The file's other conversations are listed (and item N loaded) for the import panel's picker.
  const request = { fileName, format, listItems: true, ...(item !== undefined ? { item } : {}) }
  const outcome = msg.bytes
    ? importTranscriptBytes(new Uint8Array(msg.bytes), request, strictUtf8)
    : importTranscript(msg.text ?? '', request)
  const { detection, candidates, result } = outcome
  const warnings = [...(outcome.items?.warnings ?? []), ...result.warnings]
  const itemFields = {
    items: outcome.items
      ? { kind: outcome.items.kind, label: outcome.items.label, items: outcome.items.items }
      : null,
    item: outcome.item ?? null,
  }
  if (!result.ok) {
    const { line, offset, message } = result.error
    post({
      type: 'loaded',
      id,
      protocol: PROTOCOL_VERSION,
      fileName,
      detection,
      candidates,
      formats: FORMAT_IDS,
      warnings: warnings.slice(0, MAX_WARNINGS),
      warningCount: warnings.length,
      error: { line, offset, message },
      report: null,
      preview: [],
      ms: performance.now() - started,
      ...itemFields,
    })
    progress(id, 'done')
    return
  }
  conversation = result.conversation
  progress(id, 'estimate')
  const report = inspectConversation(result.conversation, estimateCounter)
  post({
    type: 'loaded',
    id,
    protocol: PROTOCOL_VERSION,
    fileName,
    detection,
    candidates,
    formats: FORMAT_IDS,
    warnings: warnings.slice(0, MAX_WARNINGS),
    warningCount: warnings.length,
    error: null,
    report,
    preview: previewConversation(result.conversation),
    ms: performance.now() - started,
    ...itemFields,
  })
  // Let a queued cancel or newer load arrive before spending time on the tokenizer.
  await yieldToQueue()
  if (!isLive(id)) return
  await count(id, 'o200k_base')
}

/** Load the tokenizer (lazily: its rank data is a separate chunk) and post the exact report. */
async function count(id: number, tokenizer: TokenizerId): Promise<void> {
  progress(id, 'tokenizer')
  const loaded = await counterFor(tokenizer)
  await yieldToQueue()
  const conv = conversation
  if (!isLive(id) || !conv) return
  counter = loaded
  progress(id, 'count')
  const started = performance.now()
  const report = inspectConversation(conv, loaded)
  // A newer load cannot have started during the synchronous count, but a cancel may be queued.
  post({ type: 'counted', id, tokenizer, report, ms: performance.now() - started })
  progress(id, 'done')
}

/**
 * Run a config on the latest load. A newer run, a load or a cancel makes it stale; it then stops
 * at its next phase and posts nothing more.
 */
async function run(msg: ToWorkerOf<'run'>): Promise<void> {
  const { id } = msg
  latestRun = id
  runProgress(id, 'wait')
  // A load (or re-count) still counting does not hold the run: it prices with the estimate now
  // (the first budget paints without waiting for the tokenizer), and the UI runs again once the
  // exact count is in.
  const conv = conversation
  const priceWith = counter
  // Not tied to the counter: a run on the estimate finishes and posts (the UI runs again on the
  // exact count, cancelling it if it is still going).
  const live = () => id === latestRun && !cancelled.has(id) && conversation === conv
  if (!live()) return
  if (!conv) {
    post({ type: 'error', id, message: 'nothing loaded to run on: load a transcript first' })
    return
  }
  const checkpoint = async (phase: RunPhase) => {
    // A macrotask break: a queued cancel, newer run or load is seen before the next phase.
    await yieldToQueue()
    if (!live()) return false
    runProgress(id, phase)
    return true
  }
  // The summary goes out without the replay: budget, strip and table update at once; the
  // replay (the slow part on long conversations) follows and the timeline fills in.
  const outcome = await runSummary(conv, priceWith, msg.config, {
    preset: msg.preset,
    replay: false,
    checkpoint,
  })
  if (!live()) return
  switch (outcome.kind) {
    case 'invalid':
      post({ type: 'configInvalid', id, issues: outcome.issues })
      return
    case 'stale':
      return
    case 'ran':
      break
    default: {
      const unknownOutcome: never = outcome
      return unknownOutcome
    }
  }
  lastRun = outcome.record
  const summary = { ...outcome.summary, replayPending: msg.replay }
  post({ type: 'ran', id, summary }, transferablesOf(summary))
  if (msg.replay) {
    if (!(await checkpoint('replay'))) return
    let sliceStart = performance.now()
    const series = await replayRecord(outcome.record, async (done, total) => {
      // Pausing at every call would cost more than the calls; a slice of a few ms keeps a newer
      // run (an edit) waiting at most that long.
      if (performance.now() - sliceStart < REPLAY_SLICE_MS) return true
      await yieldToQueue()
      sliceStart = performance.now()
      if (!live()) return false
      post({ type: 'replayProgress', id, done, total })
      return true
    })
    if (!series || !live()) return
    post({ type: 'replayed', id, replay: series }, replayTransferables(series))
  }
  runProgress(id, 'done')
}

/** The loaded conversation and the counter it is priced with, once any count under way is in. */
async function current(id: number): Promise<Loaded | null> {
  await counting
  if (cancelled.has(id)) return null
  if (!conversation) {
    post({ type: 'error', id, message: 'nothing loaded: load a transcript first' })
    return null
  }
  return { conv: conversation, priceWith: counter }
}

const side = createSideRequests({
  post,
  current,
  isCancelled: (id) => cancelled.has(id),
  conversation: () => conversation,
  lastRun: () => ({ record: lastRun, preset: lastRunPreset, file: loadedFileName }),
  yieldToQueue,
})

/** Remember the load or re-count under way, so runs can wait for its counter. */
function track(work: Promise<void>): Promise<void> {
  counting = work.then(
    () => undefined,
    () => undefined,
  )
  return work
}

async function handle(msg: ToWorker): Promise<void> {
  switch (msg.type) {
    case 'load':
      return track(load(msg))
    case 'cancel':
      cancelled.add(msg.id)
      return
    case 'count':
      if (!conversation) {
        post({ type: 'error', id: msg.id, message: 'nothing loaded to count' })
        return
      }
      // A re-count belongs to the current conversation: it becomes the request to keep alive.
      latestLoad = msg.id
      return track(count(msg.id, msg.tokenizer))
    case 'run':
      return run(msg)
    case 'detail':
    case 'describe':
    case 'sweep':
    case 'compare':
    case 'exportConfig':
    case 'exportTranscript':
    case 'exportReport':
    case 'importConfig':
      return side(msg)
    default: {
      const unknownMessage: never = msg
      return unknownMessage
    }
  }
}

scope.onmessage = (event) => {
  const msg = event.data
  handle(msg).catch((error: unknown) => {
    post({
      type: 'error',
      id: msg.id,
      message: error instanceof Error ? error.message : String(error),
    })
  })
}
