/**
 * One builder per Anthropic context-management edit (engines.md §6): `clear_tool_uses_20250919`
 * from a clear-tool-uses step, `clear_thinking_20251015` from clear-thinking, and server-side
 * `compact_20260112` from summarize. Each returns the edit object and what it could not carry.
 */
import type { CompactionConfig } from '../../../config/schema.ts'
import { FALAI_SUMMARY_PREFIX, FALAI_SUMMARY_PROMPT } from '../../../engine/strategies/summarize.ts'
import {
  fmt,
  gatedThreshold,
  paramWarning,
  tokenTrigger,
  warning,
  type ActiveStep,
} from '../index-helpers.ts'
import type { LossyWarning } from '../types.ts'
import { pushAll } from '../../../engine/arrays.ts'

export const LABEL = 'The Anthropic API'

export interface Built {
  readonly edit: Record<string, unknown>
  /** What the API does with the edit, as a clause of the export's one-line summary. */
  readonly does: string
  /** Input tokens above which the API applies it (`null`: every request, or a count trigger). */
  readonly runsOver: number | null
  readonly warnings: LossyWarning[]
}

const inputTokens = (value: number) => ({ type: 'input_tokens', value })

/**
 * Our step fires when its pipeline trigger AND its own trigger (input tokens OR tool uses) hold;
 * the API edit has exactly one trigger, so the combination maps exactly only when it reduces to
 * a single token threshold or a single tool-use count.
 */
function clearTrigger(s: ActiveStep, usable: number, warnings: LossyWarning[]) {
  const pipe = tokenTrigger(s, usable, LABEL, 'clear_tool_uses')
  pushAll(warnings, pipe.warnings)
  const own = s.params.triggerInputTokens as number | null
  const uses = s.params.triggerToolUses as number | null
  const tokens = pipe.tokens === null && own === null ? null : Math.max(pipe.tokens ?? 0, own ?? 0)
  if (uses !== null && (own !== null || pipe.tokens !== null)) {
    warnings.push(
      paramWarning(
        s,
        'triggerToolUses',
        LABEL,
        `takes one trigger per edit, so the tool-use count (more than ${uses}) cannot be combined with the ${fmt(tokens ?? 0)}-token trigger`,
        `the edit triggers on input tokens only (over ${fmt(tokens ?? 0)})`,
      ),
    )
  } else if (uses !== null) {
    return { trigger: { type: 'tool_uses', value: uses }, runsOver: null }
  }
  if (tokens === null) {
    warnings.push(
      paramWarning(
        s,
        'triggerInputTokens',
        LABEL,
        'has no "every request" trigger for clear_tool_uses; this step has no trigger at all',
        'the API’s default trigger applies: over 100,000 input tokens',
      ),
    )
    return { trigger: undefined, runsOver: 100_000 }
  }
  return { trigger: inputTokens(tokens), runsOver: tokens }
}

export function clearToolUses(s: ActiveStep, config: CompactionConfig, usable: number): Built {
  const warnings: LossyWarning[] = []
  const p = s.params
  const { trigger, runsOver } = clearTrigger(s, usable, warnings)
  // Protected tools are never modified: on the API that is exactly exclude_tools.
  const exclude = [...new Set([...(p.excludeTools as string[]), ...config.protections.tools])]
  const edit: Record<string, unknown> = {
    type: 'clear_tool_uses_20250919',
    ...(trigger ? { trigger } : {}),
    keep: { type: 'tool_uses', value: p.keep },
  }
  if ((p.clearAtLeast as number) > 0) edit.clear_at_least = inputTokens(p.clearAtLeast as number)
  if (exclude.length > 0) edit.exclude_tools = exclude
  if (p.clearToolInputs !== false) edit.clear_tool_inputs = p.clearToolInputs
  const uses = p.keep as number
  const when =
    trigger === undefined
      ? 'once the input passes 100,000 tokens (the API default)'
      : trigger.type === 'tool_uses'
        ? `once there are more than ${fmt(trigger.value)} tool uses`
        : `once the input passes ${fmt(trigger.value)} tokens`
  const does = [
    `clears the results of tool uses older than the ${uses} most recent`,
    edit.clear_tool_inputs === true ? ' (their inputs too)' : '',
    Array.isArray(edit.clear_tool_inputs)
      ? ` (the inputs too for ${(edit.clear_tool_inputs as string[]).join(', ')})`
      : '',
    exclude.length > 0 ? `, never those of ${exclude.join(', ')},` : '',
    ` ${when}`,
    edit.clear_at_least
      ? `, and only when that frees at least ${fmt(p.clearAtLeast as number)} tokens`
      : '',
  ].join('')
  if (p.placeholder !== '[cleared]')
    warnings.push(
      paramWarning(
        s,
        'placeholder',
        LABEL,
        `writes its own (undocumented) text in place of a cleared result, not ${JSON.stringify(p.placeholder)}`,
        'the API’s own placeholder text',
      ),
    )
  return { edit, does, runsOver, warnings }
}

/**
 * The documented minimum of `keep: {type: 'thinking_turns', value: N}` is 1 ("N must be > 0",
 * platform.claude.com/docs/en/build-with-claude/context-editing, configuration options for
 * thinking block clearing); keeping none has no spelling, and 1 is the API's own default.
 */
const MIN_THINKING_TURNS = 1

export function clearThinking(s: ActiveStep): Built {
  const warnings: LossyWarning[] = []
  if (s.step.trigger)
    warnings.push(
      warning(
        `${s.path}.trigger`,
        `${LABEL} has no trigger for clear_thinking: the edit applies to every request.`,
        'thinking is cleared on every request that carries the edit',
      ),
    )
  const keep = s.params.keep as number | 'all'
  if (keep !== 'all' && keep < MIN_THINKING_TURNS)
    warnings.push(
      paramWarning(
        s,
        'keep',
        LABEL,
        `keeps the thinking of at least ${MIN_THINKING_TURNS} assistant turn (thinking_turns must be > 0); clearing every turn's thinking (keep ${keep}) has no spelling`,
        `keep: {type: "thinking_turns", value: ${MIN_THINKING_TURNS}}: the latest assistant turn keeps its thinking`,
      ),
    )
  const value = keep === 'all' ? 'all' : Math.max(MIN_THINKING_TURNS, keep)
  return {
    edit: {
      type: 'clear_thinking_20251015',
      keep: value === 'all' ? 'all' : { type: 'thinking_turns', value },
    },
    does:
      value === 'all'
        ? 'keeps every thinking block'
        : `removes the thinking of all but the ${value === 1 ? 'last assistant turn' : `last ${value} assistant turns`}`,
    runsOver: null,
    warnings,
  }
}

/** Summary-shape parameters the server's compaction block has no equivalent for. */
const SHAPE_DEFAULTS: Readonly<Record<string, unknown>> = {
  role: 'system',
  placement: 'first',
  summaryPrefix: FALAI_SUMMARY_PREFIX,
  maxOutputTokens: 1024,
  maxSummaryInputTokens: null,
}

export function compact(s: ActiveStep, config: CompactionConfig, usable: number): Built {
  const p = s.params
  const t = gatedThreshold(s, usable, LABEL, 'compaction')
  const warnings: LossyWarning[] = [...t.warnings]
  const edit: Record<string, unknown> = { type: 'compact_20260112' }
  if (t.tokens !== null) edit.trigger = inputTokens(t.tokens)
  else
    warnings.push(
      warning(
        `${s.path}.trigger`,
        `${LABEL} compacts only over an input-token trigger; this summarize step has none.`,
        'the API’s default trigger applies: over 150,000 input tokens',
      ),
    )
  // The API's instructions add to its own summarisation prompt; falai's default adds nothing.
  if (p.prompt !== FALAI_SUMMARY_PROMPT) edit.instructions = p.prompt
  const tail =
    p.preserveRecentGroups !== undefined ? 'preserveRecentGroups' : 'preserveRecentMessages'
  if ((p[tail] as number) > 0)
    warnings.push(
      paramWarning(
        s,
        tail,
        LABEL,
        `summarises everything before the compaction point; it cannot keep the last ${String(p[tail])} ${tail === 'preserveRecentGroups' ? 'groups' : 'messages'} verbatim`,
        'only what follows the compaction block stays verbatim',
      ),
    )
  for (const [name, def] of Object.entries(SHAPE_DEFAULTS))
    if (JSON.stringify(p[name]) !== JSON.stringify(def))
      warnings.push(
        paramWarning(
          s,
          name,
          LABEL,
          `writes its own compaction block; ${name} (${JSON.stringify(p[name])}) has no equivalent`,
          'the server decides the summary’s form and size',
        ),
      )
  if (p.onFailure === 'truncate')
    warnings.push(
      paramWarning(
        s,
        'onFailure',
        LABEL,
        'never truncates when compaction fails',
        'the conversation is kept as it is (the compaction block has no content)',
      ),
    )
  if (config.protections.tools.length > 0)
    warnings.push(
      warning(
        'protections.tools',
        `${LABEL} compaction summarises the calls of protected tools (${config.protections.tools.join(', ')}) like any other.`,
        'protected tool calls end up in the summary',
      ),
    )
  const over = t.tokens ?? 150_000
  return {
    edit,
    does: `replaces everything before the latest turns with a server-written summary block once the input passes ${fmt(over)} tokens`,
    runsOver: over,
    warnings,
  }
}
