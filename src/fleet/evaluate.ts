import type { EngineDeps } from '../engine/compaction/types.ts'
import type { CompactionConfig } from '../config/schema.ts'
import { runChain, type ChainHooks } from './chain.ts'
import { digestText, stableJson } from './digest.ts'
import { itemsOf, type FleetItem } from './items.ts'
import type { FleetConfigRef, FleetOutcome, FleetRow } from './types.ts'

/** The config a fleet runs with (validated), and the preset it came from, if any. */
export interface FleetConfig {
  readonly config: CompactionConfig
  readonly preset?: string
}

export function fleetConfigRef(fleet: FleetConfig): FleetConfigRef {
  return {
    name: fleet.config.name,
    ...(fleet.preset ? { preset: fleet.preset } : {}),
    digest: digestText(stableJson(fleet.config)),
  }
}

/**
 * One conversation under the config → its fleet row, or why it could not be evaluated. Every
 * figure is read from the chain's result objects (`compact`'s report, the replay points), never
 * recomputed another way.
 */
export async function evaluateOne(
  item: FleetItem,
  name: string,
  fleet: FleetConfig,
  deps: EngineDeps,
  hooks: ChainHooks = {},
): Promise<FleetOutcome | null> {
  const outcome = await runChain(
    {
      bytes: item.bytes,
      fileName: name,
      ...(item.format ? { format: item.format } : {}),
      ...(item.pick ? { item: item.item } : {}),
      ...(item.imported ? { imported: item.imported } : {}),
    },
    fleet,
    deps,
    hooks,
  )
  switch (outcome.kind) {
    case 'cancelled':
      return null
    case 'invalid':
      return {
        kind: 'failed',
        failure: {
          name,
          item: item.item,
          message: `line ${outcome.line}, offset ${outcome.offset}: ${outcome.message}`,
        },
      }
    case 'done':
      break
    default: {
      const never: never = outcome
      return never
    }
  }
  const { report, points, conversation, result } = outcome
  const fired: Record<string, number> = {}
  let firstCompactionCall: number | null = null
  let peakBefore = 0
  let peakAfter = 0
  points.forEach((p, k) => {
    if (p.fired.length > 0 && firstCompactionCall === null) firstCompactionCall = k + 1
    for (const id of p.fired) fired[id] = (fired[id] ?? 0) + 1
    peakBefore = Math.max(peakBefore, p.before)
    peakAfter = Math.max(peakAfter, p.after)
  })
  const cost = report.cost
  const row: FleetRow = {
    name,
    item: item.item,
    itemName: item.itemName,
    format: report.format,
    model: conversation.meta.model ?? null,
    messages: conversation.messages.length,
    calls: points.length,
    tokens: {
      last: {
        before: report.tokens.before,
        after: report.tokens.after,
        saved: report.tokens.saved,
        savedFraction: report.tokens.before > 0 ? report.tokens.saved / report.tokens.before : 0,
      },
      peak: { before: peakBefore, after: peakAfter },
    },
    cost: {
      before: cost?.before ?? null,
      after: cost?.after ?? null,
      saved: cost && cost.before !== null && cost.after !== null ? cost.before - cost.after : null,
    },
    fired,
    firstCompactionCall,
    changes: result.changes,
    invariantsOk: report.invariants.ok,
    usedLater: report.risk.usedLater,
  }
  return { kind: 'row', row }
}

/**
 * Every conversation of one file (multi-item files expanded in `itemsOf`). An item's failure
 * never stops the others; an unexpected error becomes that item's failure. Null: cancelled.
 */
export async function evaluateFile(
  bytes: Uint8Array,
  name: string,
  fleet: FleetConfig,
  deps: EngineDeps,
  hooks: ChainHooks = {},
): Promise<FleetOutcome[] | null> {
  const outcomes: FleetOutcome[] = []
  for (const item of itemsOf(bytes, name, hooks.strictUtf8)) {
    try {
      const outcome = await evaluateOne(item, name, fleet, deps, hooks)
      if (outcome === null) return null
      outcomes.push(outcome)
    } catch (error) {
      outcomes.push({
        kind: 'failed',
        failure: {
          name,
          item: item.item,
          message: `internal error: ${error instanceof Error ? error.message : String(error)}`,
        },
      })
    }
  }
  return outcomes
}
