/**
 * Display names and order of the token categories. Kept free of store imports so the budget model,
 * whose tests run in Node, can share it with the summary table.
 */
import type { TokenCategory } from '../../../engine/inspect-types.ts'

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
