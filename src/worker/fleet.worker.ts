/**
 * A fleet pool worker (issue 16) behind the shared envelope (serve.ts): validates the config,
 * loads its tokenizer once, and evaluates one file with the same chain `compaction-lab evaluate`
 * runs (src/fleet). Between replayed calls it looks at its queue every few milliseconds, so a
 * cancel stops a long file promptly.
 */
import { evaluateFile } from '../fleet/evaluate.ts'
import { counterFor } from '../session/load.ts'
import type { RequestHandlers } from '../session/requests.ts'
import { resolveConfig } from '../session/resolve.ts'
import { offlineDeps } from '../session/run.ts'
import { slicedCheckpoint } from '../session/scheduler.ts'
import type { FleetRequestMap } from './protocol.ts'
import { serve, strictUtf8, type WorkerScope } from './serve.ts'

const SLICE_MS = 8

const handlers: RequestHandlers<FleetRequestMap> = {
  evaluate: async (task, ctx) => {
    const resolved = resolveConfig(task.config, task.preset)
    if (!resolved.ok) return { kind: 'invalid', issues: resolved.issues }
    // The session's counters: each tokenizer's rank data is loaded once per worker.
    const counter = await counterFor(resolved.config.tokenizer)
    let bytes: Uint8Array
    try {
      // A picked file comes as its Blob: read here, so the page's main thread never copies it.
      bytes = new Uint8Array(
        task.bytes instanceof Blob ? await task.bytes.arrayBuffer() : task.bytes,
      )
    } catch (error) {
      const message = `cannot read: ${error instanceof Error ? error.message : String(error)}`
      return { kind: 'ok', value: [{ kind: 'failed', failure: { name: task.name, message } }] }
    }
    const outcomes = await evaluateFile(
      bytes,
      task.name,
      { config: resolved.config, ...(task.preset ? { preset: task.preset } : {}) },
      offlineDeps(counter),
      { strictUtf8, checkpoint: slicedCheckpoint(ctx, { sliceMs: SLICE_MS, progressMs: 0 }) },
    )
    return outcomes === null ? { kind: 'stale' } : { kind: 'ok', value: outcomes }
  },
}

serve(globalThis as unknown as WorkerScope<FleetRequestMap>, handlers)
