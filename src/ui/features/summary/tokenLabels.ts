import type { TokenCategory, TokenSummary } from '../../../store/index.ts'
import { formatCount } from '../../lib/format.ts'

export const CATEGORY_LABELS: Record<TokenCategory, string> = {
  system: 'System prompt',
  tools: 'Tool definitions',
  user: 'User messages',
  assistant: 'Assistant text',
  reasoning: 'Reasoning',
  tool_calls: 'Tool calls',
  tool_results: 'Tool results',
  images: 'Images',
  opaque: 'Opaque payloads',
  framing: 'Message framing',
}

export const CATEGORY_ORDER: readonly TokenCategory[] = [
  'system',
  'tools',
  'user',
  'assistant',
  'reasoning',
  'tool_calls',
  'tool_results',
  'images',
  'opaque',
  'framing',
]

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
