/**
 * The engine worker: a thin adapter from protocol messages to the engine and format APIs.
 * It holds no logic of its own beyond sequencing phases and dropping work that became stale.
 */
import { inspectConversation } from '../engine/inspect.ts'
import type { Conversation } from '../engine/model.ts'
import { estimateCounter, loadCounter } from '../engine/tokens/index.ts'
import type { TextCounter, TokenizerId } from '../engine/tokens/types.ts'
import { FORMAT_IDS, importTranscript } from '../formats/index.ts'
import { previewConversation } from './preview.ts'
import {
  LOAD_PHASES,
  MAX_WARNINGS,
  PROTOCOL_VERSION,
  type FromWorker,
  type LoadPhase,
  type ToWorker,
  type ToWorkerOf,
} from './protocol.ts'

/**
 * The part of the worker global we use, typed here so this file checks under the WebWorker lib
 * and under a DOM-lib program alike (both declare `MessageEvent`, only one the worker scope).
 */
interface WorkerScope {
  postMessage(message: FromWorker): void
  onmessage: ((event: MessageEvent<ToWorker>) => void) | null
}
const scope = globalThis as unknown as WorkerScope

/** The parsed conversation of the latest successful load; it never crosses to the UI. */
let conversation: Conversation | null = null
/** Id of the newest load: older loads still running are stale and stop at their next phase. */
let latestLoad = 0
const cancelled = new Set<number>()

function post(message: FromWorker): void {
  scope.postMessage(message)
}

function progress(id: number, phase: LoadPhase): void {
  const done = LOAD_PHASES.indexOf(phase)
  post({ type: 'progress', id, phase, done, total: LOAD_PHASES.length - 1 })
}

function isLive(id: number): boolean {
  return id === latestLoad && !cancelled.has(id)
}

function counterFor(tokenizer: TokenizerId): Promise<TextCounter> {
  return tokenizer === 'estimate' ? Promise.resolve(estimateCounter) : loadCounter(tokenizer)
}

/** A macrotask break so a `cancel` (or a newer `load`) queued behind us is seen before heavy work. */
function yieldToQueue(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0))
}

async function load(msg: ToWorkerOf<'load'>): Promise<void> {
  const { id, text, fileName, format } = msg
  latestLoad = id
  // Cancels of older loads are moot now: `latestLoad` already makes them stale.
  cancelled.clear()
  conversation = null
  progress(id, 'parse')
  const started = performance.now()
  const outcome = importTranscript(text, { fileName, format })
  const { detection, candidates, result } = outcome
  const warnings = result.warnings
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
  })
  // Let a queued cancel or newer load arrive before spending time on the tokenizer.
  await yieldToQueue()
  if (!isLive(id)) return
  await count(id, 'o200k_base')
}

/** Load the tokenizer (lazily: its rank data is a separate chunk) and post the exact report. */
async function count(id: number, tokenizer: TokenizerId): Promise<void> {
  progress(id, 'tokenizer')
  const counter = await counterFor(tokenizer)
  await yieldToQueue()
  const conv = conversation
  if (!isLive(id) || !conv) return
  progress(id, 'count')
  const started = performance.now()
  const report = inspectConversation(conv, counter)
  // A newer load cannot have started during the synchronous count, but a cancel may be queued.
  post({ type: 'counted', id, tokenizer, report, ms: performance.now() - started })
  progress(id, 'done')
}

async function handle(msg: ToWorker): Promise<void> {
  switch (msg.type) {
    case 'load':
      return load(msg)
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
      return count(msg.id, msg.tokenizer)
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
