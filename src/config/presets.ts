import { STRATEGY_REGISTRY } from '../engine/strategies/index.ts'
import {
  CONFIG_SCHEMA_URL,
  CONFIG_VERSION,
  type CompactionConfig,
  type CompactionConfigInput,
} from './schema.ts'
import { validateConfig } from './validate.ts'

import { isPresetId, PRESET_IDS, type PresetId } from './preset-ids.ts'

export { isPresetId, PRESET_IDS, type PresetId }

const base = {
  $schema: CONFIG_SCHEMA_URL,
  version: CONFIG_VERSION,
  tokenizer: 'o200k_base',
} as const

// Microsoft Agent Framework ContextWindowCompactionStrategy for a 128k model with 16k output:
// input budget B = window − max output; phase 1 at 0.5·B, phase 2 at 0.8·B.
const MAF_WINDOW = 128_000
const MAF_OUTPUT = 16_384
const MAF_BUDGET = MAF_WINDOW - MAF_OUTPUT
const MAF_EVICT = Math.floor(0.5 * MAF_BUDGET)
const MAF_TRUNCATE = Math.floor(0.8 * MAF_BUDGET)

const FALAI = { maxTokens: 100_000, compactionThreshold: 0.8, preserveRecentCount: 4 }

/**
 * The presets, one per reproduced system with that system's defaults, plus our own
 * recommendation. Each reproduces the source behaviour with its known bugs fixed (every strategy
 * has `faithful: false`); flip `faithful` on a step to reproduce the bug exactly.
 */
const PRESETS: Record<PresetId, CompactionConfigInput> = {
  recommended: {
    ...base,
    name: 'recommended',
    description:
      'Our default, cheapest and least lossy first. (1) At half the usable window, stub tool results that a newer ' +
      'result for the same file, search or listing supersedes — nothing the model needs is lost. (2) At 70 %, clear ' +
      'old tool results (keeping the newest 8 and every call, never the skill/instructions tool) when that frees ' +
      'at least 10k tokens, so prompt-cache invalidation pays off. (3) At 85 %, summarise everything before the ' +
      'last 6 groups (with the offline digest unless an LLM endpoint is configured); if summarising fails, nothing ' +
      'changes. Each step stops the pipeline once the context is under 60 %. A final fallback drops the oldest ' +
      'groups (never the newest) only if all that was not enough. Pending calls, the latest thinking blocks and ' +
      'the system prompt are never touched.',
    window: { contextTokens: 200_000, reservedOutput: 20_000, buffer: 0 },
    protections: { tools: ['skill', 'Skill'] },
    pipeline: [
      {
        strategy: 'supersede-stale-results',
        trigger: { mode: 'any', conditions: [{ kind: 'window_fraction', over: 0.5 }] },
        target: { kind: 'window_fraction', under: 0.6 },
        params: {},
      },
      {
        strategy: 'clear-tool-uses',
        trigger: { mode: 'any', conditions: [{ kind: 'window_fraction', over: 0.7 }] },
        target: { kind: 'window_fraction', under: 0.6 },
        params: {
          triggerInputTokens: null,
          keep: 8,
          clearAtLeast: 10_000,
          excludeTools: ['skill', 'Skill'],
        },
      },
      {
        strategy: 'summarize',
        trigger: { mode: 'any', conditions: [{ kind: 'window_fraction', over: 0.85 }] },
        target: { kind: 'window_fraction', under: 0.6 },
        params: {
          compactionThreshold: null,
          preserveRecentGroups: 6,
          role: 'user',
          placement: 'at_first_covered',
          summaryPrefix: '[Summary of earlier conversation]\n',
          onFailure: 'fail_open',
        },
      },
    ],
    fallback: { enabled: true, strict: false },
  },

  lip: {
    ...base,
    name: 'lip',
    description:
      'llm-interactive-proxy stale tool output compaction: above 100k estimated tokens, every older result for a ' +
      'resource (file, listing, search, test run) that a newer result supersedes becomes the [COMPACTED] stub; ' +
      'file writes and commands are never compacted (the documented safe lists). Fixed mode: full command lines and ' +
      'search patterns are part of the identity, paths are normalised.',
    window: { contextTokens: 200_000, reservedOutput: 8_192, buffer: 0 },
    pipeline: [
      {
        strategy: 'supersede-stale-results',
        trigger: { mode: 'any', conditions: [{ kind: 'tokens', over: 100_000 }] },
        params: { tokenThreshold: 100_000, minToolOutputTokens: 250, writesMakeStale: false },
      },
    ],
  },

  adachsoft: {
    ...base,
    name: 'adachsoft',
    description:
      'adachsoft tool_compaction: on every request, older calls and results of each {tool, identifier} group have ' +
      'top-level argument/result fields over 100 bytes replaced by "[omitted]" with byte counts and sha256 in ' +
      '_tool_compaction; the latest call and result per group stay intact.',
    window: { contextTokens: 200_000, reservedOutput: 8_192, buffer: 0 },
    pipeline: [
      { strategy: 'tool-payload-trim', params: { inputTrimBytes: 100, outputTrimBytes: 100 } },
    ],
  },

  falai: {
    ...base,
    name: 'falai',
    description:
      '@falai/agent CompactionEngine with maxTokens 100k and threshold 0.8: at 80k, truncate old tool results to ' +
      '5,000 chars, then collapse their whitespace, then summarise everything before the last 4 messages (kept as ' +
      'whole groups) into a [Conversation Summary] system message, falling back to truncation if summarising ' +
      'fails; it stops at the first tier that gets under the threshold.',
    window: { contextTokens: 100_000, reservedOutput: 0, buffer: 0 },
    pipeline: [
      {
        strategy: 'tool-result-budget',
        params: { ...FALAI, maxToolResultChars: 5_000 },
        target: { kind: 'tokens', under: 80_000 },
      },
      { strategy: 'micro-compact', params: FALAI, target: { kind: 'tokens', under: 80_000 } },
      {
        strategy: 'summarize',
        params: {
          maxTokens: FALAI.maxTokens,
          compactionThreshold: FALAI.compactionThreshold,
          preserveRecentMessages: 4,
        },
        target: { kind: 'tokens', under: 80_000 },
      },
    ],
  },

  opencode: {
    ...base,
    name: 'opencode',
    description:
      'opencode: after every turn, prune old tool outputs to "[Old tool result content cleared]" — protecting the ' +
      'last 2 user turns, the newest 40k tokens of tool output and the skill tool — only when that frees over 20k ' +
      'tokens; when the context reaches the usable window (context − 20k reserved), summarise the older history.',
    window: { contextTokens: 200_000, reservedOutput: 20_000, buffer: 0 },
    pipeline: [
      { strategy: 'prune-tool-outputs', params: {} },
      {
        strategy: 'summarize',
        trigger: { mode: 'any', conditions: [{ kind: 'window_fraction', over: 1 }] },
        params: {
          compactionThreshold: null,
          preserveRecentGroups: 4,
          role: 'assistant',
          placement: 'at_first_covered',
          summaryPrefix: '',
          prompt:
            'Provide a detailed summary for continuing our conversation: the objective, important details, work ' +
            'state (completed, active, blocked), the next move and the relevant files.',
          onFailure: 'fail_open',
        },
      },
    ],
  },

  'maf-context-window': {
    ...base,
    name: 'maf-context-window',
    description:
      `Microsoft Agent Framework ContextWindowCompactionStrategy (Python) for a ${MAF_WINDOW / 1000}k window with ` +
      `${MAF_OUTPUT} output tokens: over half the input budget, collapse all but the newest 4 tool-call groups into ` +
      '"[Tool results: …]" messages, then drop oldest groups to the budget; over 80 %, truncate oldest groups down ' +
      'to half the budget. The newest group is always kept.',
    window: { contextTokens: MAF_WINDOW, reservedOutput: MAF_OUTPUT, buffer: 0 },
    pipeline: [
      {
        strategy: 'collapse-tool-results',
        trigger: { mode: 'any', conditions: [{ kind: 'tokens', over: MAF_EVICT }] },
        params: { keepLastToolCallGroups: 4 },
      },
      {
        strategy: 'token-budget',
        trigger: { mode: 'any', conditions: [{ kind: 'tokens', over: MAF_EVICT }] },
        params: { tokenBudget: MAF_EVICT, strict: true },
      },
      {
        strategy: 'truncation',
        trigger: { mode: 'any', conditions: [{ kind: 'tokens', over: MAF_TRUNCATE }] },
        params: { metric: 'tokens', maxN: MAF_TRUNCATE, compactTo: MAF_EVICT },
      },
      {
        strategy: 'token-budget',
        trigger: { mode: 'any', conditions: [{ kind: 'tokens', over: MAF_TRUNCATE }] },
        params: { tokenBudget: MAF_TRUNCATE, strict: true },
      },
    ],
  },

  'anthropic-clear-tool-uses': {
    ...base,
    name: 'anthropic-clear-tool-uses',
    description:
      'Anthropic context editing clear_tool_uses_20250919 with its defaults: above 100k input tokens, clear the ' +
      'oldest tool results, keeping the 3 most recent tool uses.',
    window: { contextTokens: 200_000, reservedOutput: 8_192, buffer: 0 },
    pipeline: [{ strategy: 'clear-tool-uses', params: { triggerInputTokens: 100_000, keep: 3 } }],
  },
}

/** A preset as a validated config with every default filled in. */
export function presetConfig(id: PresetId): CompactionConfig {
  const result = validateConfig(PRESETS[id], STRATEGY_REGISTRY)
  if (!result.ok) {
    // Presets are ours: an invalid one is a programming error caught by the preset tests.
    throw new Error(
      `preset ${id} is invalid: ${result.issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`,
    )
  }
  return result.config
}
