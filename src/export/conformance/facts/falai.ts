/**
 * @falai/agent's compaction option. Source: github.com/falai-dev/agent, commit eebbd7e
 * (2026-06-22), package version 2.6.0: `AgentCompactionConfig` (src/types/agent.ts:48-74, exported
 * from the package root, src/index.ts:97), the Agent constructor that adds its own provider
 * (src/core/Agent.ts:329-341) and `CompactionEngine.validateOptions`, which throws at
 * construction (src/core/CompactionEngine.ts:19-45). The package is not on the npm registry
 * (E404 for @falai/agent), so the type is written down here and the export is compiled against it.
 */
export const FALAI_SOURCE = 'falai-dev/agent@eebbd7e (2.6.0) src/types/agent.ts:48-74'

/** A declaration of the module with exactly the parts the export touches, as 2.6.0 has them. */
export const FALAI_DECLARATION = `declare module '@falai/agent' {
  export interface AgentCompactionConfig {
    maxTokens: number
    compactionThreshold?: number
    preserveRecentCount?: number
    maxToolResultChars?: number
    enabled?: boolean
  }
  export interface AiProvider {
    readonly name: string
  }
  export interface AgentOptions {
    name: string
    provider: AiProvider
    compaction?: AgentCompactionConfig
  }
  export class Agent {
    constructor(options: AgentOptions)
  }
}
`

/** validateOptions, as checks on the resolved options (defaults 0.8, 4, 5000 filled by Agent). */
export function falaiOptionProblems(o: {
  readonly maxTokens: number
  readonly compactionThreshold?: number
  readonly preserveRecentCount?: number
  readonly maxToolResultChars?: number
}): string[] {
  const threshold = o.compactionThreshold ?? 0.8
  const preserve = o.preserveRecentCount ?? 4
  const chars = o.maxToolResultChars ?? 5000
  const out: string[] = []
  if (!(o.maxTokens > 0)) out.push(`maxTokens must be > 0, got ${o.maxTokens}`)
  if (!(threshold >= 0.5 && threshold <= 0.95))
    out.push(`compactionThreshold must be between 0.5 and 0.95, got ${threshold}`)
  if (!(preserve >= 2)) out.push(`preserveRecentCount must be >= 2, got ${preserve}`)
  if (!(chars > 0)) out.push(`maxToolResultChars must be > 0, got ${chars}`)
  return out
}
