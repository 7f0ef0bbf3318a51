import type { ReportedUsage } from '../engine/model.ts'
import { isObject, num } from './util.ts'

/** Where the two OpenAI APIs keep the same figures under different names. */
interface UsageFields {
  readonly input: string
  readonly output: string
  readonly inputDetails: string
  readonly outputDetails: string
  readonly source: string
}

/**
 * An OpenAI `usage` object → ReportedUsage: the prompt size is the context of that call, cached
 * input and reasoning output come from the details objects. Chat Completions and Responses differ
 * only in field names.
 */
export function openAiUsage(u: unknown, f: UsageFields): ReportedUsage | undefined {
  if (!isObject(u)) return undefined
  const input = num(u[f.input])
  const output = num(u[f.output])
  const inDetails = u[f.inputDetails]
  const outDetails = u[f.outputDetails]
  const cached = isObject(inDetails) ? num(inDetails.cached_tokens) : undefined
  const reasoning = isObject(outDetails) ? num(outDetails.reasoning_tokens) : undefined
  return {
    ...(input !== undefined ? { contextTokens: input, inputTokens: input } : {}),
    ...(output !== undefined ? { outputTokens: output } : {}),
    ...(cached !== undefined ? { cacheReadTokens: cached } : {}),
    ...(reasoning !== undefined ? { reasoningTokens: reasoning } : {}),
    source: f.source,
  }
}
