/**
 * opencode's `compaction` config object. Source: the opencode-ai npm package 1.18.33 (the binary
 * `npm run verify:exports` runs), whose config schema declares `compaction` as a struct of
 * optional `auto` and `prune` (booleans) and `tail_turns`, `preserve_recent_tokens`, `reserved`
 * (non-negative integers: the binary refuses 1.5 and -1) — read from the schema compiled into the
 * binary (the Effect Schema struct of the TypeScript config module in anomalyco/opencode).
 * Unknown keys are dropped silently (`opencode debug config` does not echo them back), a wrong
 * type is a load error.
 */
export const OPENCODE_VERSION = '1.18.33'
export const OPENCODE_SOURCE = `opencode-ai@${OPENCODE_VERSION} config schema (compaction)`

export const OPENCODE_COMPACTION_KEYS: Readonly<Record<string, 'boolean' | 'int>=0'>> = {
  auto: 'boolean',
  prune: 'boolean',
  tail_turns: 'int>=0',
  preserve_recent_tokens: 'int>=0',
  reserved: 'int>=0',
}

export const OPENCODE_SCHEMA_URL = 'https://opencode.ai/config.json'
