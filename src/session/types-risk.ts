/**
 * The risk figures of a run as they cross the worker boundary (part of the protocol:
 * `protocol.ts` re-exports every type). Removed content the agent used later: per run a count of
 * groups and the tokens they held, per group the strings that prove it.
 */
import type { RiskItem } from '../engine/risk/types.ts'

export type { RiskItem }

/** At most this many risk items cross the boundary with a run (`itemCount` says how many). */
export const MAX_RISK_ITEMS = 5000

/** A run's risk: groups removed and then used, the tokens they held, and the first items. */
export interface RunRisk {
  readonly usedLater: number
  readonly tokens: number
  /** In group order, at most `MAX_RISK_ITEMS`. */
  readonly items: readonly RiskItem[]
  readonly itemCount: number
}

/** The two headline figures of a run's risk, for compare sides and sweep points. */
export interface RiskFigures {
  /** Groups removed and then used later. */
  readonly usedLater: number
  /** Tokens those groups held (removed, then used). */
  readonly tokens: number
}
