/**
 * The worker side of the envelope, for any request map: it turns each `request` message into a
 * handler call (src/session/scheduler.ts for the engine, fleet.worker.ts for the pool), and owns
 * what a thread boundary needs — request ids, cancels, progress messages, the reply's
 * transferables and a failed handler's `error`. When a request runs and when it went stale is the
 * handlers' business; a cancelled request posts nothing more.
 */
import type { RequestHandlers } from '../session/requests.ts'
import {
  PROTOCOL_VERSION,
  type FromWorker,
  type Progress,
  type RequestMapOf,
  type ToWorker,
} from './protocol.ts'

/** The part of the worker global we use (checks under the WebWorker lib and a DOM-lib program). */
export interface WorkerScope<M extends RequestMapOf<M>> {
  postMessage(message: FromWorker<M>, transfer?: ArrayBuffer[]): void
  onmessage: ((event: MessageEvent<ToWorker<M>>) => void) | null
}

/** Strict UTF-8 decoding (the session's decoder: `TextDecoder` is not in the pure layers' lib). */
export const strictUtf8 = (bytes: Uint8Array): string =>
  new TextDecoder('utf-8', { fatal: true }).decode(bytes)

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

/**
 * Answer the requests arriving at `scope` with `handlers`; `transferOf` names the buffers a reply
 * owns (transferred, so the UI thread gets them without a copy).
 */
export function serve<M extends RequestMapOf<M>>(
  scope: WorkerScope<M>,
  handlers: RequestHandlers<M>,
  transferOf: (kind: keyof M, reply: unknown) => ArrayBuffer[] = () => [],
): void {
  /** Requests still running, and those of them the client abandoned. */
  const running = new Set<number>()
  const cancelled = new Set<number>()
  const post = (message: FromWorker<M>, transfer: ArrayBuffer[] = []) => {
    if (transfer.length > 0) scope.postMessage(message, transfer)
    else scope.postMessage(message)
  }

  async function handle<K extends keyof M>(id: number, kind: K, params: M[K]['params']) {
    const live = () => !cancelled.has(id)
    const progress = (p: Progress<string>) => post({ kind: 'progress', id, progress: p })
    const outcome = await handlers[kind](params, {
      live,
      progress,
      checkpoint: async (p) => {
        await yieldToQueue()
        if (!live()) return false
        if (p) progress(p)
        return true
      },
    })
    if (!live()) return
    switch (outcome.kind) {
      case 'ok': {
        const reply = { kind: 'reply', id, request: kind, protocol: PROTOCOL_VERSION }
        post({ ...reply, reply: outcome.value } as FromWorker<M>, transferOf(kind, outcome.value))
        return
      }
      case 'invalid':
        return post({ kind: 'invalid', id, issues: outcome.issues })
      case 'failed':
        return post({ kind: 'error', id, message: outcome.message })
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
}
