import { prepare } from '../engine/compaction/prepared.ts'
import type { ReplayPoint } from '../engine/compaction/replay.ts'
import type { CompactionResult } from '../engine/compaction/run.ts'
import type { EngineDeps } from '../engine/compaction/types.ts'
import { sessionCost } from '../engine/cost/summary.ts'
import type { Conversation, FormatId } from '../engine/model.ts'
import { assessRisk } from '../engine/risk/index.ts'
import type { CompactionConfig } from '../config/schema.ts'
import { buildCompactReport, type CompactReport } from '../export/reports.ts'
import type { ImportOutcome } from '../formats/index.ts'
import { importInput } from '../session/load.ts'
import { compactPrepared, replayPreparedCancellable } from '../session/run.ts'

/**
 * The per-conversation chain (resolve → prepare → compact → replay → summarize), the one function
 * fleet evaluation calls. It runs the session layer's import, compaction and replay — the ones
 * `compaction-lab compact` runs (src/session/batch.ts `compactFile`) — so a fleet row's figures
 * are that command's figures for the same file; only the deps (counter, summariser) come from
 * the caller, so a fleet loads its tokenizer once.
 */

export interface ChainInput {
  readonly bytes: Uint8Array
  /** The file name: detection hints and the report's `file`. */
  readonly fileName: string
  readonly format?: FormatId
  /** Import only this item of a multi-item file (`compact --item N`). */
  readonly item?: number
  /** The import of these bytes with these options, when the caller already has it (no re-parse). */
  readonly imported?: ImportOutcome
}

export interface ChainConfig {
  readonly config: CompactionConfig
  readonly preset?: string
}

export interface ChainHooks {
  /**
   * The host's validating UTF-8 decoder (`TextDecoder` with `fatal: true`; Node and browsers both
   * have one, the engine's lib does not): the fast path of `importTranscriptBytes`.
   */
  readonly strictUtf8?: (bytes: Uint8Array) => string
  /** Called between replayed calls; false abandons (the chain then resolves `cancelled`). */
  readonly checkpoint?: (done: number, total: number) => Promise<boolean> | boolean
}

export type ChainOutcome =
  | {
      readonly kind: 'done'
      readonly conversation: Conversation
      readonly result: CompactionResult
      readonly points: readonly ReplayPoint[]
      readonly report: CompactReport
    }
  | {
      readonly kind: 'invalid'
      readonly line: number
      readonly offset: number
      readonly message: string
    }
  | { readonly kind: 'cancelled' }

/** Import one transcript and run the config on it as `compact` does; never throws on bad input. */
export async function runChain(
  input: ChainInput,
  config: ChainConfig,
  deps: EngineDeps,
  hooks: ChainHooks = {},
): Promise<ChainOutcome> {
  const outcome =
    input.imported ??
    importInput(
      {
        bytes: input.bytes,
        fileName: input.fileName,
        ...(input.format ? { format: input.format } : {}),
        ...(input.item !== undefined ? { item: input.item } : {}),
      },
      hooks.strictUtf8,
    )
  if (!outcome.result.ok) {
    const e = outcome.result.error
    return { kind: 'invalid', line: e.line, offset: e.offset, message: e.message }
  }
  const conversation = outcome.result.conversation
  const prepared = prepare(conversation, deps.counter)
  const result = await compactPrepared(prepared, config.config, deps)
  const points = await replayPreparedCancellable(prepared, config.config, deps, hooks)
  if (points === null) return { kind: 'cancelled' }
  const report = buildCompactReport(result, {
    file: input.fileName,
    config: { name: config.config.name, ...(config.preset ? { preset: config.preset } : {}) },
    cost: sessionCost(points),
    risk: assessRisk(prepared, result),
  })
  return { kind: 'done', conversation, result, points, report }
}
