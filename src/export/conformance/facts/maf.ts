/**
 * Microsoft Agent Framework (Python) compaction API as the exporter may call it. Source:
 * github.com/microsoft/agent-framework, commit 5eb3eb7 (2026-08-07), package agent-framework-core
 * 1.13.0 (python/packages/core/pyproject.toml), file
 * python/packages/core/agent_framework/_compaction.py: keyword-only constructor parameters
 * (`*,` in every signature) at the lines given per class, the module's `__all__` (lines
 * 1735-1769), and the package root's lazy re-exports (agent_framework/__init__.py:58-86, 265).
 */
export const MAF_SOURCE =
  'microsoft/agent-framework@5eb3eb7 python/packages/core/agent_framework/_compaction.py (1.13.0)'

/** A keyword parameter: whether it has no default, and what it must hold when written. */
export interface MafParam {
  readonly required: boolean
  /** Checks a Python literal as the exporter writes it; a message when it is not allowed. */
  readonly check?: (literal: string) => string | null
}

const int = (literal: string): number | null =>
  /^-?\d[\d_]*$/.test(literal) ? Number(literal.replace(/_/g, '')) : null
const num = (literal: string): number | null =>
  /^-?\d[\d_]*(\.\d+)?$/.test(literal) ? Number(literal.replace(/_/g, '')) : null

const positiveInt = (l: string) => ((int(l) ?? 0) > 0 ? null : `${l} is not an int > 0`)
const nonNegativeInt = (l: string) => ((int(l) ?? -1) >= 0 ? null : `${l} is not an int >= 0`)
const optionalPositiveInt = (l: string) => (l === 'None' ? null : positiveInt(l))
const fraction = (l: string) => {
  const v = num(l)
  return v !== null && v > 0 && v <= 1 ? null : `${l} is not in (0, 1]`
}
const bool = (l: string) => (l === 'True' || l === 'False' ? null : `${l} is not a bool`)
const str = (l: string) => (/^"(?:[^"\\]|\\.)*"$/.test(l) ? null : `${l} is not a string`)

/** Constructor keyword parameters per class (raises ValueError where `check` fails). */
export const MAF_CONSTRUCTORS: Readonly<Record<string, Readonly<Record<string, MafParam>>>> = {
  // _compaction.py:809-838 (max_n > 0, 0 < compact_to <= max_n)
  TruncationStrategy: {
    max_n: { required: true, check: positiveInt },
    compact_to: { required: true, check: positiveInt },
    tokenizer: { required: false },
    preserve_system: { required: false, check: bool },
  },
  // _compaction.py:883-893 (keep_last_groups > 0)
  SlidingWindowStrategy: {
    keep_last_groups: { required: true, check: positiveInt },
    preserve_system: { required: false, check: bool },
  },
  // _compaction.py:927-941 (0 allowed: remove every tool-call group)
  SelectiveToolCallCompactionStrategy: {
    keep_last_tool_call_groups: { required: false, check: nonNegativeInt },
  },
  // _compaction.py:988-1002 (0 allowed: collapse every tool-call group)
  ToolResultCompactionStrategy: {
    keep_last_tool_call_groups: { required: false, check: nonNegativeInt },
  },
  // _compaction.py:1219-1268 (target_count > 0, threshold >= 0, max_summary_input_tokens > 0)
  SummarizationStrategy: {
    client: { required: true },
    target_count: { required: false, check: positiveInt },
    threshold: { required: false, check: nonNegativeInt },
    prompt: { required: false, check: (l) => (l === 'None' ? null : str(l)) },
    max_summary_input_tokens: { required: false, check: optionalPositiveInt },
    tokenizer: { required: false },
  },
  // _compaction.py:1411-1432
  TokenBudgetComposedStrategy: {
    token_budget: { required: true, check: nonNegativeInt },
    tokenizer: { required: true },
    strategies: { required: true },
    early_stop: { required: false, check: bool },
  },
  // _compaction.py:1532-1560
  CompactionProvider: {
    before_strategy: { required: false },
    after_strategy: { required: false },
    tokenizer: { required: false },
    source_id: { required: false, check: str },
    history_source_id: { required: false, check: str },
  },
  // _compaction.py:1653-1697 (thresholds in (0, 1], truncation >= eviction, output < window)
  ContextWindowCompactionStrategy: {
    max_context_window_tokens: { required: true, check: positiveInt },
    max_output_tokens: { required: true, check: nonNegativeInt },
    tokenizer: { required: false },
    tool_eviction_threshold: { required: false, check: fraction },
    truncation_threshold: { required: false, check: fraction },
    keep_last_tool_call_groups: { required: false, check: nonNegativeInt },
  },
  // _compaction.py:76-80 (no parameters)
  CharacterEstimatorTokenizer: {},
}

/** Names `from agent_framework._compaction import …` can take (its `__all__`, 1735-1769). */
export const MAF_COMPACTION_MODULE: readonly string[] = [
  'CharacterEstimatorTokenizer',
  'CompactionProvider',
  'CompactionStrategy',
  'ContextWindowCompactionStrategy',
  'SelectiveToolCallCompactionStrategy',
  'SlidingWindowStrategy',
  'SummarizationStrategy',
  'TokenBudgetComposedStrategy',
  'TokenizerProtocol',
  'ToolResultCompactionStrategy',
  'TruncationStrategy',
  'annotate_message_groups',
  'annotate_token_counts',
  'apply_compaction',
  'included_messages',
  'included_token_count',
  'project_included_messages',
]

/** Names the package root re-exports (`from agent_framework import …`). */
export const MAF_ROOT: readonly string[] = [
  'CompactionProvider',
  'ContextWindowCompactionStrategy',
  'SummarizationStrategy',
  'TokenBudgetComposedStrategy',
  'Message',
]
