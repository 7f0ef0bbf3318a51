/**
 * A fleet pool worker: validates the config, loads its tokenizer once, and evaluates one file at
 * a time with the same chain `compaction-lab evaluate` runs (src/fleet). Between replayed calls it
 * yields to its message queue every few milliseconds, so a cancel stops a long file promptly.
 */
import { evaluateFile } from '../fleet/evaluate.ts'
import { counterFor } from '../session/load.ts'
import { resolveConfig } from '../session/resolve.ts'
import { offlineDeps } from '../session/run.ts'
import type { FromFleetWorker, ToFleetWorker } from './fleet-protocol.ts'

interface WorkerScope {
  postMessage(message: FromFleetWorker): void
  onmessage: ((event: MessageEvent<ToFleetWorker>) => void) | null
}
const scope = globalThis as unknown as WorkerScope

const cancelled = new Set<number>()
const strictUtf8 = (bytes: Uint8Array): string =>
  new TextDecoder('utf-8', { fatal: true }).decode(bytes)
/** A macrotask break: lets a `cancel` message in. */
const yieldToQueue = () => new Promise<void>((resolve) => setTimeout(resolve, 0))
const YIELD_MS = 8

async function evaluate(task: Extract<ToFleetWorker, { type: 'evaluate' }>): Promise<void> {
  const resolved = resolveConfig(task.config, task.preset)
  if (!resolved.ok) {
    scope.postMessage({ type: 'invalid', id: task.id, issues: resolved.issues })
    return
  }
  // The session's counters: each tokenizer's rank data is loaded once per worker.
  const counter = await counterFor(resolved.config.tokenizer)
  let bytes: Uint8Array
  try {
    // A picked file comes as its Blob: read here, so the page's main thread never copies it.
    bytes = new Uint8Array(task.bytes instanceof Blob ? await task.bytes.arrayBuffer() : task.bytes)
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    scope.postMessage({
      type: 'evaluated',
      id: task.id,
      outcomes: [
        { kind: 'failed', failure: { name: task.name, message: `cannot read: ${message}` } },
      ],
    })
    return
  }
  let last = performance.now()
  const outcomes = await evaluateFile(
    bytes,
    task.name,
    { config: resolved.config, ...(task.preset ? { preset: task.preset } : {}) },
    offlineDeps(counter),
    {
      strictUtf8,
      checkpoint: async (done, total) => {
        if (performance.now() - last < YIELD_MS) return !cancelled.has(task.id)
        await yieldToQueue()
        last = performance.now()
        scope.postMessage({ type: 'progress', id: task.id, done, total })
        return !cancelled.has(task.id)
      },
    },
  )
  if (outcomes === null || cancelled.has(task.id)) {
    cancelled.delete(task.id)
    scope.postMessage({ type: 'cancelled', id: task.id })
    return
  }
  scope.postMessage({ type: 'evaluated', id: task.id, outcomes })
}

scope.onmessage = (event) => {
  const message = event.data
  switch (message.type) {
    case 'cancel':
      cancelled.add(message.id)
      return
    case 'evaluate':
      void evaluate(message).catch((error: unknown) =>
        scope.postMessage({
          type: 'evaluated',
          id: message.id,
          outcomes: [
            {
              kind: 'failed',
              failure: {
                name: message.name,
                message: `internal error: ${error instanceof Error ? error.message : String(error)}`,
              },
            },
          ],
        }),
      )
      return
    default: {
      const never: never = message
      return never
    }
  }
}
