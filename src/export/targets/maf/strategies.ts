/**
 * One pipeline step → one Agent Framework (Python, `agent_framework`) strategy constructor call.
 * Names and defaults follow `_compaction.py`; where MAF has no equivalent the step is dropped
 * and a warning says what MAF does instead.
 */
import type { CompactionConfig } from '../../../config/schema.ts'
import { pyBool, pyCall, pyInt, pyStr, triggerTokens, type Warnings } from './python.ts'

type Step = CompactionConfig['pipeline'][number]

/** MAF's ToolResultCompactionStrategy digest cap since PR #7396 (not configurable). */
const MAF_DIGEST_CAP = 4096

export interface StepEnv {
  readonly usable: number
  readonly w: Warnings
  /** Inside a TokenBudgetComposedStrategy whose budget already is this step's trigger. */
  readonly inPhase: boolean
}

const num = (v: unknown, fallback: number): number => (typeof v === 'number' ? v : fallback)
const bool = (v: unknown, fallback: boolean): boolean => (typeof v === 'boolean' ? v : fallback)
const str = (v: unknown, fallback: string): string => (typeof v === 'string' ? v : fallback)

/** MAF strategies have no trigger of their own: a step trigger outside a phase is lost. */
function triggerLost(step: Step, i: number, env: StepEnv, what: string): void {
  if (!step.trigger || env.inPhase) return
  env.w.add(
    `pipeline[${i}].trigger`,
    `${what} has no trigger in Agent Framework, and a trigger is only expressible as the budget of a TokenBudgetComposedStrategy followed by a token-budget step with that budget.`,
    `${what} runs on every compaction pass.`,
  )
}

function targetLost(step: Step, i: number, env: StepEnv): void {
  if (!step.target || env.inPhase) return
  env.w.add(
    `pipeline[${i}].target`,
    'Agent Framework stops early only inside a TokenBudgetComposedStrategy (early_stop at its budget); a standalone strategy has no target.',
    'The later strategies run whatever the context size.',
  )
}

function summarize(step: Step, i: number, env: StepEnv): string {
  const p = step.params
  const at = (k: string) => `pipeline[${i}].params.${k}`
  // With a group tail, its size is still the nearest message count MAF can take.
  const target = num(p.preserveRecentGroups, num(p.preserveRecentMessages, 4))
  const args = ['client=summary_client', `target_count=${pyInt(target)}`]
  // MAF's own trigger: included non-system messages > target_count + threshold.
  const t = step.trigger
  const c = t?.conditions.length === 1 ? t.conditions[0] : undefined
  if (c?.kind === 'messages' && c.over >= target && !env.inPhase) {
    args.push(`threshold=${pyInt(c.over - target)}`)
  } else {
    args.push('threshold=0')
    if (!env.inPhase && t) {
      env.w.add(
        `pipeline[${i}].trigger`,
        'SummarizationStrategy only triggers on the included message count (target_count + threshold).',
        `It summarises whenever more than ${target} non-system messages are included.`,
      )
    }
  }
  args.push(`prompt=${pyStr(str(p.prompt, ''))}`)
  const maxIn = p.maxSummaryInputTokens
  args.push(`max_summary_input_tokens=${typeof maxIn === 'number' ? pyInt(maxIn) : 'None'}`)
  if (p.compactionThreshold !== null && p.compactionThreshold !== undefined) {
    env.w.add(
      at('compactionThreshold'),
      'Agent Framework has no token gate on summarisation (the @falai maxTokens × compactionThreshold check).',
      'The message-count trigger alone decides.',
    )
  }
  if (p.preserveRecentGroups !== undefined) {
    env.w.add(
      at('preserveRecentGroups'),
      'SummarizationStrategy keeps a number of messages (target_count), not groups.',
      `target_count=${target} messages, extended to whole groups.`,
    )
  }
  if (p.role !== 'assistant') {
    env.w.add(
      at('role'),
      `MAF always inserts the summary as an assistant message, not ${String(p.role)}.`,
      'An assistant message.',
    )
  }
  if (p.placement !== 'at_first_covered') {
    env.w.add(
      at('placement'),
      'MAF inserts the summary where the summarised span began, not first.',
      'Placed at the first summarised group.',
    )
  }
  if (str(p.summaryPrefix, '') !== '') {
    env.w.add(
      at('summaryPrefix'),
      'MAF inserts the summary text with no prefix.',
      'The bare summary text.',
    )
  }
  if (p.onFailure !== 'fail_open') {
    env.w.add(
      at('onFailure'),
      'SummarizationStrategy is fail-open; it never truncates after a failed summary.',
      'History is left unchanged when summarising fails.',
    )
  }
  env.w.add(
    at('maxOutputTokens'),
    'SummarizationStrategy has no output-length parameter.',
    'The summary client’s own max output tokens apply (set them on summary_client).',
  )
  if (bool(p.faithful, false)) {
    env.w.add(
      at('faithful'),
      'The @falai/agent bugs reproduced by faithful mode do not exist in Agent Framework.',
      'MAF’s own behaviour (system messages are never summarised).',
    )
  }
  return pyCall('SummarizationStrategy', args)
}

/**
 * The MAF constructor call for a step (any trigger/target losses recorded), or null when MAF has
 * no such strategy. `token-budget` is composed by the caller, never here.
 */
export function mafStrategy(step: Step, i: number, env: StepEnv): string | null {
  const p = step.params
  const at = (k: string) => `pipeline[${i}].params.${k}`
  switch (step.strategy) {
    case 'collapse-tool-results': {
      if (num(p.maxSummaryChars, MAF_DIGEST_CAP) !== MAF_DIGEST_CAP) {
        env.w.add(
          at('maxSummaryChars'),
          `MAF's digest cap is fixed at ${MAF_DIGEST_CAP} characters.`,
          `Digests are capped at ${MAF_DIGEST_CAP} characters.`,
        )
      }
      if (bool(p.faithful, false)) {
        env.w.add(
          at('faithful'),
          'Current Agent Framework caps the digest (PR #7396); the unbounded digest of issue #7393 cannot be reproduced.',
          `Digests are capped at ${MAF_DIGEST_CAP} characters.`,
        )
      }
      triggerLost(step, i, env, 'ToolResultCompactionStrategy')
      targetLost(step, i, env)
      return `ToolResultCompactionStrategy(keep_last_tool_call_groups=${pyInt(num(p.keepLastToolCallGroups, 1))})`
    }
    case 'selective-tool-calls':
      triggerLost(step, i, env, 'SelectiveToolCallCompactionStrategy')
      targetLost(step, i, env)
      return `SelectiveToolCallCompactionStrategy(keep_last_tool_call_groups=${pyInt(num(p.keepLastToolCallGroups, 1))})`
    case 'sliding-window': {
      triggerLost(step, i, env, 'SlidingWindowStrategy')
      targetLost(step, i, env)
      const args = [`keep_last_groups=${pyInt(num(p.keepLastGroups, 1))}`]
      if (!bool(p.preserveSystem, true)) args.push(`preserve_system=${pyBool(false)}`)
      return pyCall('SlidingWindowStrategy', args)
    }
    case 'truncation': {
      const tokens = p.metric === 'tokens'
      const own = triggerTokens(step.trigger, env.usable)
      // Its own max_n is a trigger; a step trigger equal to it (tokens metric) adds nothing.
      if (!(tokens && own === num(p.maxN, 0))) triggerLost(step, i, env, 'TruncationStrategy')
      targetLost(step, i, env)
      const args = [`max_n=${pyInt(num(p.maxN, 1))}`, `compact_to=${pyInt(num(p.compactTo, 1))}`]
      if (tokens) args.push('tokenizer=tokenizer')
      if (!bool(p.preserveSystem, true)) args.push(`preserve_system=${pyBool(false)}`)
      return pyCall('TruncationStrategy', args)
    }
    case 'summarize':
      targetLost(step, i, env)
      return summarize(step, i, env)
    default:
      env.w.add(
        `pipeline[${i}]`,
        `Agent Framework has no equivalent of ${step.strategy}.`,
        'The step is left out of the snippet.',
      )
      return null
  }
}
