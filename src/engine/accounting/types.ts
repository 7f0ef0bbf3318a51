/** Where a per-call figure comes from (every figure the product shows says which). */
export type FigureSource = 'reported' | 'reconciled' | 'estimated'

/** User overrides of the reconciliation (kept in the config, so they export and load). */
export interface AccountingOverrides {
  /** Hidden prefix (system prompt + tool schemas not in the log), tokens, for every call. */
  readonly prefixTokens?: number
  /** Provider tokens per token of ours. */
  readonly scale?: number
}

/** Why a call's reported usage was not used by the fit. */
export interface IgnoredCall {
  readonly call: number
  readonly index: number
  readonly why: string
}

/** One model call's context, as the provider counted it and as we reconstruct it. */
export interface CallFigure {
  /** Message index of the assistant message this call produced. */
  readonly index: number
  readonly messageId: string
  /** Context (thread) of the call: `main` or the sub-agent / sidechain id. */
  readonly thread: string
  /** Our count of what the log shows this call received (provider rules applied). */
  readonly visible: number
  /** Hidden prefix assumed for this call. */
  readonly prefix: number
  /** The reconstructed context: prefix + scale × visible. Never a reported figure copied in. */
  readonly estimate: number
  /** The transcript's own figure for this call, when valid. */
  readonly reported?: number
  /** (estimate − reported) / reported, when reported. */
  readonly residual?: number
  /** An upstream compaction restarted this call's context. */
  readonly upstreamCompaction?: boolean
}

export interface Reconciliation {
  /** `reconciled` when fitted on reported usage, else `estimated` (defaults or overrides only). */
  readonly source: Exclude<FigureSource, 'reported'>
  /** Where the reported figures came from (e.g. "claude-code usage snapshot"), or null. */
  readonly reportedBy: string | null
  readonly provider: string
  /** The provider rule for reasoning, in words. */
  readonly rules: string
  /** Calls with a valid reported figure used by the fit. */
  readonly calls: number
  /** Calls whose reported figure was missing, invalid or an outlier, with why. */
  readonly dropped: number
  readonly ignored: readonly IgnoredCall[]
  /** Hidden prefix of the main agent at its first call (steps below may change it later). */
  readonly prefixTokens: number
  /** Hidden prefix of sub-agents, when the session has any. */
  readonly subagentPrefixTokens?: number
  readonly scale: number
  /** How each figure was set: fitted, default (labelled), or the user's override. */
  readonly prefixFrom: 'fitted' | 'default' | 'override'
  readonly scaleFrom: 'fitted' | 'default' | 'fixed' | 'override'
  /** Changes of the hidden prefix inside the session. */
  readonly steps: readonly {
    readonly fromIndex: number
    readonly thread: 'main' | 'subagent'
    readonly prefixTokens: number
  }[]
  /** Median and 90th percentile of |estimate − reported| / reported over reported calls. */
  readonly medianAbsError: number | null
  readonly p90AbsError: number | null
  /** Calls whose residual is over 10 % (flagged in the UI). */
  readonly flagged: readonly number[]
  readonly figures: readonly CallFigure[]
  /** One sentence for the UI and the CLI: what was fitted on what, or why nothing was. */
  readonly summary: string
}
