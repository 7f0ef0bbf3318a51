/**
 * Risk of a compaction: removed content that the agent used later in the real transcript.
 * Plain data (structured-clone safe): the CLI writes it in its report and the worker sends it to
 * the UI as it is.
 */

/** One group whose removed content the agent used after the point it was removed. */
export interface RiskItem {
  /** The group the config excluded, stubbed, trimmed or summarised. */
  readonly groupId: string
  /** The first later assistant message that used a string only the removed content held. */
  readonly laterMessageId: string
  /** The strings, earliest use first (at most a handful). */
  readonly evidence: readonly string[]
  /** Model calls from the end of the group to `laterMessageId` (1: the very next call). */
  readonly callsLater: number
  /** Tokens the config removed from this group (what its decisions saved). */
  readonly tokens: number
}

/** Per run: how many groups were removed and then used, and how many tokens they held. */
export interface RiskReport {
  /** Number of groups (= `items.length`). */
  readonly usedLater: number
  /** Tokens removed from those groups. */
  readonly tokens: number
  /** In group order. */
  readonly items: readonly RiskItem[]
}

export const NO_RISK: RiskReport = { usedLater: 0, tokens: 0, items: [] }
