/**
 * adachsoft/ai-agent-context-tool-compaction `conversationContextStrategyParams`. Source: the
 * package's README at v0.2.0 (packagist, 2026-01-31; kept in the shared seeds as
 * adachsoft-tool-compaction.txt), "Configuration": every key optional, resolved by
 * ParamsResolver, invalid types silently replaced by the defaults (fail-open) — which is why a
 * wrong type here would not fail loudly in PHP and must be caught before.
 */
export const ADACHSOFT_SOURCE =
  'adachsoft/ai-agent-context-tool-compaction v0.2.0 README (Configuration)'

export type AdachsoftKeyType = 'int>0' | 'string[]' | 'map<string,string[]>'

export const ADACHSOFT_KEYS: Readonly<Record<string, AdachsoftKeyType>> = {
  inputTrimBytes: 'int>0',
  outputTrimBytes: 'int>0',
  excludedTools: 'string[]',
  toolIdentifierFields: 'map<string,string[]>',
}

/** The strategy id `conversationContextStrategyId` selects (ToolCompactionStrategyParams::STRATEGY_ID). */
export const ADACHSOFT_STRATEGY_ID = 'tool_compaction'
