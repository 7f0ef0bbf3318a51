import type { TokenSummary } from '../../../store/index.ts'
import { formatCount } from '../../lib/format.ts'

/**
 * The headline figure, always saying how it was obtained: an estimate is never shown without "≈"
 * and its method, an exact count names its encoding.
 */
export function describeTotal(tokens: TokenSummary): string {
  const n = formatCount(tokens.total)
  if (tokens.tokenizer === 'estimate') return `≈ ${n} tokens (estimate, chars/4)`
  if (tokens.exact) return `${n} tokens (${tokens.tokenizer}, exact)`
  return `≈ ${n} tokens (${tokens.tokenizer}, long runs approximated)`
}
