/**
 * One pipeline step → one Agent Framework (Python, `agent_framework`) strategy constructor call.
 * Names and defaults follow `_compaction.py`; where MAF has no equivalent the step is dropped
 * and a warning says what MAF does instead.
 */
import type { CompactionConfig } from '../../../config/schema.ts'
import { fmt } from '../index-helpers.ts'
import { pyBool, pyCall, pyInt, pyStr, triggerTokens, type Warnings } from './python.ts'
import { maxOf, minOf } from '../../../engine/arrays.ts'

type Step = CompactionConfig['pipeline'][number]

/** MAF's ToolResultCompactionStrategy digest cap since PR #7396 (not configurable). */
const MAF_DIGEST_CAP = 4096

export interface StepEnv {
  readonly usable: number
  readonly w: Warnings
  /** Inside a TokenBudgetComposedStrategy whose budget already is this step's trigger. */
  readonly inPhase: boolean
}

/** A MAF strategy expression and what it does, as a clause of the export's one-line summary. */
export interface Unit {
  readonly expr: string
  readonly does: string
}

/** Name of the wrapper class the snippet defines when a step runs only over a token count. */
export const GATE_CLASS = 'OverTokens'

type Condition = NonNullable<Step['trigger']>['conditions'][number]
const tokenLike = (c: Condition) => c.kind === 'tokens' || c.kind === 'window_fraction'

/**
 * A trigger made only of token conditions as the one "more than N included tokens" threshold it
 * is (any → the lowest, all → the highest), else null.
 */
export function gateTokens(trigger: Step['trigger'], usable: number): number | null {
  if (!trigger || !trigger.conditions.every(tokenLike)) return null
  const values = trigger.conditions.map((c) =>
    c.kind === 'tokens' ? c.over : Math.floor(c.over * usable),
  )
  return trigger.mode === 'all' ? maxOf(values) : minOf(values)
}

/**
 * MAF strategies have no trigger of their own, but any strategy is an async callable: the snippet
 * wraps a token-triggered step in `OverTokens(n, strategy)`, which counts the included tokens
 * with MAF's own helpers (`annotate_token_counts`, `included_token_count`, _compaction.py
 * 648-716 at agent-framework python 1.13.0) and runs the strategy only above n.
 */
export function gated(unit: Unit, tokens: number): Unit {
  const inner = unit.expr.replace(/\n/g, '\n    ')
  return {
    expr: unit.expr.includes('\n')
      ? `${GATE_CLASS}(\n    ${pyInt(tokens)},\n    ${inner},\n)`
      : `${GATE_CLASS}(${pyInt(tokens)}, ${unit.expr})`,
    does: `once over ${fmt(tokens)} tokens ${unit.does}`,
  }
}

const num = (v: unknown, fallback: number): number => (typeof v === 'number' ? v : fallback)
const bool = (v: unknown, fallback: boolean): boolean => (typeof v === 'boolean' ? v : fallback)
const str = (v: unknown, fallback: string): string => (typeof v === 'string' ? v : fallback)

/**
 * A step trigger outside a phase: a token threshold becomes an `OverTokens` gate (returned); any
 * other trigger is lost with a warning (null).
 */
function triggerGate(step: Step, i: number, env: StepEnv, what: string): number | null {
  if (!step.trigger || env.inPhase) return null
  const tokens = gateTokens(step.trigger, env.usable)
  if (tokens !== null) return tokens
  env.w.add(
    `pipeline[${i}].trigger`,
    `${what} has no trigger in Agent Framework; only a token threshold can be added around it (OverTokens), not a ${step.trigger.conditions
      .filter((c) => !tokenLike(c))
      .map((c) => c.kind.replace('_', ' '))
      .join(' or ')} count.`,
    `${what} runs on every compaction pass.`,
  )
  return null
}

function maybeGated(unit: Unit, tokens: number | null): Unit {
  return tokens === null ? unit : gated(unit, tokens)
}

function targetLost(step: Step, i: number, env: StepEnv): void {
  if (!step.target || env.inPhase) return
  env.w.add(
    `pipeline[${i}].target`,
    'Agent Framework stops early only inside a TokenBudgetComposedStrategy (early_stop at its budget); a standalone strategy has no target.',
    'The later strategies run whatever the context size.',
  )
}

/**
 * When our summarize step runs, in MAF terms: a token threshold (the pipeline trigger and the
 * falai-style gate `maxTokens × compactionThreshold`, both of which must hold) for an `OverTokens`
 * wrapper, and a message count for SummarizationStrategy's own trigger (more than
 * target_count + threshold included non-system messages, _compaction.py:1311).
 */
function summaryTrigger(
  step: Step,
  i: number,
  env: StepEnv,
  target: number,
): { tokens: number | null; messages: number | null } {
  const p = step.params
  // Our gate runs at or over maxTokens × ratio; over integers that is over ceil(x) − 1.
  const gate =
    typeof p.compactionThreshold === 'number'
      ? Math.ceil(num(p.maxTokens, env.usable) * p.compactionThreshold) - 1
      : null
  const t = env.inPhase ? undefined : step.trigger
  if (!t) return { tokens: gate, messages: null }
  const tokenConds = t.conditions.filter(tokenLike)
  const messageConds = t.conditions.filter((c) => c.kind === 'messages')
  const others = t.conditions.filter((c) => !tokenLike(c) && c.kind !== 'messages')
  const pick = (values: number[]) =>
    values.length === 0 ? null : t.mode === 'all' ? maxOf(values) : minOf(values)
  let tokens = pick(
    tokenConds.map((c) => (c.kind === 'tokens' ? c.over : Math.floor(c.over * env.usable))),
  )
  let messages = pick(messageConds.map((c) => c.over))
  if (messages !== null && messages < target) {
    env.w.add(
      `pipeline[${i}].trigger`,
      `SummarizationStrategy only triggers above its target_count (${target}); the "messages > ${messages}" condition is lower.`,
      `It summarises once more than ${target} non-system messages are included.`,
    )
    messages = target
  }
  if (others.length > 0 || (t.mode === 'any' && tokens !== null && messages !== null)) {
    env.w.add(
      `pipeline[${i}].trigger`,
      t.mode === 'any' && tokens !== null && messages !== null
        ? 'Agent Framework can require a token count and a message count together, not either one.'
        : `Agent Framework can gate summarisation on tokens and included messages only, not on ${others.map((c) => c.kind.replace('_', ' ')).join(' or ')}.`,
      tokens !== null
        ? `It summarises once over ${fmt(tokens)} tokens.`
        : 'It runs without that condition.',
    )
    if (tokens !== null) messages = null
  }
  if (gate !== null) tokens = Math.max(tokens ?? 0, gate)
  return { tokens, messages }
}

function summarize(step: Step, i: number, env: StepEnv): Unit {
  const p = step.params
  const at = (k: string) => `pipeline[${i}].params.${k}`
  // With a group tail, its size is still the nearest message count MAF can take; MAF refuses
  // target_count 0 (ValueError, _compaction.py:1258-1259) and always keeps the newest group anyway.
  const asked = num(p.preserveRecentGroups, num(p.preserveRecentMessages, 4))
  const target = Math.max(1, asked)
  if (asked < 1)
    env.w.add(
      at(p.preserveRecentGroups !== undefined ? 'preserveRecentGroups' : 'preserveRecentMessages'),
      'SummarizationStrategy keeps at least one message (target_count must be greater than 0).',
      'target_count=1: the newest group stays verbatim.',
    )
  const args = ['client=summary_client', `target_count=${pyInt(target)}`]
  const when = summaryTrigger(step, i, env, target)
  args.push(`threshold=${pyInt(when.messages === null ? 0 : when.messages - target)}`)
  args.push(`prompt=${pyStr(str(p.prompt, ''))}`)
  const maxIn = p.maxSummaryInputTokens
  args.push(`max_summary_input_tokens=${typeof maxIn === 'number' ? pyInt(maxIn) : 'None'}`)
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
  const unit: Unit = {
    expr: pyCall('SummarizationStrategy', args),
    does: `summarises all but the newest ${target} messages (whole groups) into an assistant message written by summary_client${when.messages === null ? '' : ` once more than ${fmt(when.messages)} messages are included`}`,
  }
  return maybeGated(unit, when.tokens)
}

/**
 * The MAF constructor call for a step (any trigger/target losses recorded), or null when MAF has
 * no such strategy. `token-budget` is composed by the caller, never here.
 */
export function mafStrategy(step: Step, i: number, env: StepEnv): Unit | null {
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
      const gate = triggerGate(step, i, env, 'ToolResultCompactionStrategy')
      targetLost(step, i, env)
      const keep = num(p.keepLastToolCallGroups, 1)
      return maybeGated(
        {
          expr: `ToolResultCompactionStrategy(keep_last_tool_call_groups=${pyInt(keep)})`,
          does: `collapses ${keep === 0 ? 'every tool-call group' : `all but the newest ${keep} tool-call groups`} into "[Tool results: …]" digests`,
        },
        gate,
      )
    }
    case 'selective-tool-calls': {
      const gate = triggerGate(step, i, env, 'SelectiveToolCallCompactionStrategy')
      targetLost(step, i, env)
      const keep = num(p.keepLastToolCallGroups, 1)
      return maybeGated(
        {
          expr: `SelectiveToolCallCompactionStrategy(keep_last_tool_call_groups=${pyInt(keep)})`,
          does:
            keep === 0
              ? 'drops every tool-call group'
              : `drops all but the newest ${keep} tool-call groups`,
        },
        gate,
      )
    }
    case 'sliding-window': {
      const gate = triggerGate(step, i, env, 'SlidingWindowStrategy')
      targetLost(step, i, env)
      const keep = num(p.keepLastGroups, 1)
      const args = [`keep_last_groups=${pyInt(keep)}`]
      if (!bool(p.preserveSystem, true)) args.push(`preserve_system=${pyBool(false)}`)
      return maybeGated(
        {
          expr: pyCall('SlidingWindowStrategy', args),
          does: `keeps only the newest ${keep} groups${bool(p.preserveSystem, true) ? ' (and the system messages)' : ''}`,
        },
        gate,
      )
    }
    case 'truncation': {
      const tokens = p.metric === 'tokens'
      const own = triggerTokens(step.trigger, env.usable)
      const maxN = num(p.maxN, 1)
      const compactTo = num(p.compactTo, 1)
      // Its own max_n is a trigger; a step trigger equal to it (tokens metric) adds nothing.
      const gate = tokens && own === maxN ? null : triggerGate(step, i, env, 'TruncationStrategy')
      targetLost(step, i, env)
      const args = [`max_n=${pyInt(maxN)}`, `compact_to=${pyInt(compactTo)}`]
      if (tokens) args.push('tokenizer=tokenizer')
      if (!bool(p.preserveSystem, true)) args.push(`preserve_system=${pyBool(false)}`)
      const unit = tokens ? 'tokens' : 'messages'
      return maybeGated(
        {
          expr: pyCall('TruncationStrategy', args),
          does: `drops the oldest groups down to ${fmt(compactTo)} ${unit} once over ${fmt(maxN)} ${unit}`,
        },
        gate,
      )
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
