/**
 * The configs the export conformance suite translates for every target: the seven presets as
 * shipped, plus edited configs that between them use every strategy of the registry, every kind
 * of trigger and target, the protections and the fallback — the shapes a user reaches by editing.
 */
import { PRESET_IDS, presetConfig } from '../../config/presets.ts'
import type { CompactionConfig } from '../../config/schema.ts'
import { configOf } from '../targets/index.testing.ts'

const over = (kind: 'tokens' | 'messages' | 'turns' | 'groups' | 'tool_results', n: number) => ({
  kind,
  over: n,
})
const fraction = (n: number) => ({ kind: 'window_fraction' as const, over: n })
const base = {
  version: 1 as const,
  tokenizer: 'o200k_base' as const,
  window: { contextTokens: 128_000, reservedOutput: 8_000, buffer: 2_000 },
}

/** Edited configs, by name; together they use all 13 strategies. */
export const EDITED_CONFIGS: Readonly<Record<string, CompactionConfig>> = {
  // All thirteen strategies in one pipeline, non-default parameters, mixed triggers.
  'every-strategy': configOf({
    ...base,
    name: 'every-strategy',
    protections: { recentTurns: 1, pinned: ['m3'], tools: ['memory'] },
    pipeline: [
      {
        strategy: 'supersede-stale-results',
        trigger: { mode: 'any', conditions: [fraction(0.4), over('messages', 60)] },
        params: { allowedCategories: ['file_read', 'list_directory'], minToolOutputTokens: 100 },
      },
      {
        strategy: 'tool-payload-trim',
        params: {
          inputTrimBytes: 300,
          outputTrimBytes: 2_000,
          excludedTools: ['todo'],
          toolIdentifierFields: { read_file: ['path'] },
        },
      },
      {
        strategy: 'tool-result-budget',
        params: { maxToolResultChars: 3_000, compactionThreshold: 0.6, preserveRecentCount: 3 },
      },
      { strategy: 'micro-compact', params: { compactionThreshold: 0.6, preserveRecentCount: 3 } },
      {
        strategy: 'prune-tool-outputs',
        params: { protectTokens: 30_000, minimumTokens: 10_000 },
      },
      {
        strategy: 'clear-tool-uses',
        trigger: { mode: 'all', conditions: [over('tokens', 70_000), over('tool_results', 10)] },
        params: { keep: 5, clearAtLeast: 5_000, clearToolInputs: ['bash'], excludeTools: ['read'] },
      },
      { strategy: 'clear-thinking', params: { keep: 2 } },
      {
        strategy: 'collapse-tool-results',
        trigger: { mode: 'any', conditions: [over('tokens', 80_000)] },
        params: { keepLastToolCallGroups: 2 },
      },
      {
        strategy: 'selective-tool-calls',
        trigger: { mode: 'any', conditions: [over('tokens', 90_000)] },
        params: { keepLastToolCallGroups: 3 },
      },
      {
        strategy: 'sliding-window',
        trigger: { mode: 'any', conditions: [over('turns', 40)] },
        params: { keepLastGroups: 30 },
      },
      {
        strategy: 'truncation',
        params: { metric: 'messages', maxN: 200, compactTo: 150 },
      },
      {
        strategy: 'summarize',
        trigger: { mode: 'any', conditions: [fraction(0.9)] },
        target: { kind: 'window_fraction', under: 0.5 },
        params: {
          compactionThreshold: null,
          preserveRecentMessages: 6,
          summaryPrefix: '',
          maxSummaryInputTokens: 6_000,
        },
      },
      {
        strategy: 'token-budget',
        trigger: { mode: 'any', conditions: [over('tokens', 110_000)] },
        params: { tokenBudget: 110_000, strict: true },
      },
    ],
    fallback: { enabled: true, strict: true, target: { kind: 'window_fraction', under: 0.8 } },
  }),

  // What LangChain can carry in full: its differential check must agree call by call.
  'langchain-exact': configOf({
    ...base,
    name: 'langchain-exact',
    pipeline: [
      {
        strategy: 'summarize',
        trigger: { mode: 'any', conditions: [over('tokens', 3_000)] },
        params: {
          compactionThreshold: null,
          preserveRecentMessages: 4,
          role: 'user',
          placement: 'first',
          summaryPrefix: 'Summary of the conversation so far:\n\n',
          maxSummaryInputTokens: null,
          onFailure: 'fail_open',
        },
      },
      {
        strategy: 'clear-tool-uses',
        params: { triggerInputTokens: 1_500, keep: 2, clearToolInputs: true },
      },
    ],
  }),

  // Summaries and Anthropic edits at their edges: keep 0 thinking, a tool-use trigger, a
  // message-count summary trigger, an exactly mapped LangChain prefix.
  'edits-and-summaries': configOf({
    ...base,
    name: 'edits-and-summaries',
    protections: { recentTurns: 2 },
    pipeline: [
      { strategy: 'clear-thinking', params: { keep: 0 } },
      {
        strategy: 'clear-tool-uses',
        params: { triggerInputTokens: null, triggerToolUses: 30, keep: 4, placeholder: '[gone]' },
      },
      {
        strategy: 'summarize',
        trigger: { mode: 'all', conditions: [over('messages', 40), over('tokens', 60_000)] },
        params: {
          compactionThreshold: null,
          preserveRecentGroups: 0,
          role: 'assistant',
          placement: 'at_first_covered',
          summaryPrefix: 'Earlier:\n\n',
          onFailure: 'fail_open',
        },
      },
    ],
  }),

  // Microsoft Agent Framework shapes that do not collapse into ContextWindowCompactionStrategy.
  'maf-phases': configOf({
    ...base,
    name: 'maf-phases',
    pipeline: [
      {
        strategy: 'collapse-tool-results',
        trigger: { mode: 'any', conditions: [over('tokens', 40_000)] },
        params: { keepLastToolCallGroups: 6 },
      },
      {
        strategy: 'selective-tool-calls',
        trigger: { mode: 'any', conditions: [over('tokens', 40_000)] },
        target: { kind: 'tokens', under: 40_000 },
        params: { keepLastToolCallGroups: 0 },
      },
      {
        strategy: 'token-budget',
        trigger: { mode: 'any', conditions: [over('tokens', 40_000)] },
        params: { tokenBudget: 40_000, strict: true },
      },
      {
        strategy: 'truncation',
        trigger: { mode: 'any', conditions: [over('tokens', 90_000)] },
        params: { metric: 'tokens', maxN: 90_000, compactTo: 60_000, preserveSystem: false },
      },
      {
        strategy: 'sliding-window',
        trigger: { mode: 'any', conditions: [fraction(0.95)] },
        params: { keepLastGroups: 8, preserveSystem: false },
      },
    ],
  }),

  // The falai chain with its own numbers, and adachsoft with identifier fields.
  'falai-and-adachsoft': configOf({
    ...base,
    name: 'falai-and-adachsoft',
    window: { contextTokens: 64_000, reservedOutput: 4_000, buffer: 0 },
    protections: { tools: ['skill'] },
    pipeline: [
      {
        strategy: 'tool-payload-trim',
        params: {
          inputTrimBytes: 64,
          outputTrimBytes: 512,
          toolIdentifierFields: { read_file_content: ['path', 'position', 'length'] },
          faithful: true,
        },
      },
      {
        strategy: 'tool-result-budget',
        params: { maxTokens: 60_000, compactionThreshold: 0.7, preserveRecentCount: 6 },
      },
      {
        strategy: 'micro-compact',
        params: { maxTokens: 60_000, compactionThreshold: 0.7, preserveRecentCount: 6 },
      },
      {
        strategy: 'summarize',
        params: { maxTokens: 60_000, compactionThreshold: 0.7, preserveRecentMessages: 6 },
      },
    ],
  }),

  // opencode with its tail written out, and LIP with its categories and faithful gate.
  'opencode-and-lip': configOf({
    ...base,
    name: 'opencode-and-lip',
    window: { contextTokens: 200_000, reservedOutput: 32_000, buffer: 0 },
    protections: { recentTurns: 2 },
    pipeline: [
      {
        strategy: 'supersede-stale-results',
        params: {
          faithful: true,
          tokenThreshold: 50_000,
          allowedCategories: [],
          deniedCategories: ['file_write', 'command_execution', 'other'],
          stubTemplate: '[stale] {resource} ({size} bytes) was replaced by a newer result',
        },
      },
      { strategy: 'prune-tool-outputs', params: {} },
      {
        strategy: 'summarize',
        trigger: { mode: 'any', conditions: [over('tokens', 150_000)] },
        params: { compactionThreshold: null, preserveRecentGroups: 0, role: 'assistant' },
      },
    ],
  }),
}

/** Every config the suite runs: the presets by id, then the edited configs by name. */
export const CONFORMANCE_CONFIGS: readonly (readonly [string, CompactionConfig])[] = [
  ...PRESET_IDS.map((id) => [id, presetConfig(id)] as const),
  ...Object.entries(EDITED_CONFIGS),
]
