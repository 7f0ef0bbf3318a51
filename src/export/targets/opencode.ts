/**
 * opencode (`sst/opencode`): the `compaction` object of `opencode.json` (engines.md §2) —
 * `prune` (clear old tool outputs after each turn), `auto` (summarise when the context reaches
 * the usable window) and `reserved` (the tokens kept free below the model's limit). Everything
 * else opencode does is built in: its prune constants, its summary template, its tail rules.
 * The `opencode` preset is our model of those built-ins, so a step whose parameters equal the
 * preset's is exactly what opencode does, and any other value is reported as lost.
 */
import type { CompactionConfig } from '../../config/schema.ts'
import {
  activeSteps,
  duplicateStep,
  fallbackWarnings,
  fmt,
  json,
  paramWarning,
  protectionWarnings,
  targetTokens,
  targetWarnings,
  unsupportedStep,
  usableTokens,
  warning,
  type ActiveStep,
  type Ordered,
} from './index-helpers.ts'
import { reference, summaryThreshold } from './opencode/reference.ts'
import type { ExportTarget, LossyWarning, TargetOutput } from './types.ts'
import { pushAll } from '../../engine/arrays.ts'

const LABEL = 'opencode'

/** opencode's built-in prune settings, by our parameter name. */
const PRUNE_BUILTINS: readonly (readonly [string, string])[] = [
  ['minimumTokens', 'prunes only when more than PRUNE_MINIMUM (20,000) tokens would be freed'],
  ['protectTokens', 'always keeps the newest PRUNE_PROTECT (40,000) tokens of tool output'],
  ['protectedTools', 'never prunes the tools in PRUNE_PROTECTED_TOOLS (skill) and only those'],
  ['protectTurns', 'never prunes the last 2 user turns, a fixed number'],
  ['placeholder', 'sends "[Old tool result content cleared]" for a pruned output'],
]

/** opencode's built-in summary behaviour, by our parameter name. */
const SUMMARY_BUILTINS: readonly (readonly [string, string])[] = [
  ['role', 'writes the summary as an assistant message'],
  ['placement', 'puts the summary where the summarised history was'],
  ['summaryPrefix', 'adds no prefix to the summary'],
  ['prompt', 'uses its own summary template (a plugin can replace it)'],
  ['maxOutputTokens', 'lets the summary use its own output limit'],
  ['maxSummaryInputTokens', 'sends the whole summarised history to the summariser'],
  ['onFailure', 'leaves the history as it is when summarising fails'],
]

function builtinWarnings(
  s: ActiveStep,
  builtins: readonly (readonly [string, string])[],
  ref: Readonly<Record<string, unknown>>,
): LossyWarning[] {
  return builtins.flatMap(([name, does]) =>
    JSON.stringify(s.params[name]) === JSON.stringify(ref[name])
      ? []
      : [
          paramWarning(
            s,
            name,
            LABEL,
            `has no setting for this (${name} ${JSON.stringify(s.params[name]) ?? 'unset'}); it ${does}`,
            'opencode’s built-in behaviour applies',
          ),
        ],
  )
}

/**
 * opencode's preserved tail (packages/opencode/src/session/compaction.ts, `select` and
 * `preserveRecentBudget`, as compiled into opencode-ai 1.18.33): walking back over the last
 * `tail_turns` user turns (no limit when unset; `tail_turns <= 0` keeps nothing), it keeps every
 * whole turn that still fits in `preserve_recent_tokens` (default min(15,000, max(2,000, 25 % of
 * the usable window))), then as much of the next turn as fits.
 */
const MIN_PRESERVE_RECENT_TOKENS = 2_000
const MAX_PRESERVE_RECENT_TOKENS = 15_000

export function defaultPreserveRecentTokens(usable: number): number {
  return Math.min(
    MAX_PRESERVE_RECENT_TOKENS,
    Math.max(MIN_PRESERVE_RECENT_TOKENS, Math.floor(usable * 0.25)),
  )
}

function tailName(s: ActiveStep): string {
  return s.params.preserveRecentGroups !== undefined
    ? `last ${String(s.params.preserveRecentGroups)} groups`
    : `last ${String(s.params.preserveRecentMessages)} messages`
}

interface Tail {
  /** Keys to write into `compaction` (`tail_turns`, `preserve_recent_tokens`). */
  readonly keys: Readonly<Record<string, number>>
  readonly warnings: readonly LossyWarning[]
  /** How the summary's tail reads in the one-line summary. */
  readonly words: string
}

/**
 * Our tail (the last N groups or messages, and the protected last turns) in opencode's terms.
 * The preset's tail is our stand-in for opencode's default token tail, so it writes no keys;
 * "keep nothing" is exactly `tail_turns: 0`; protected turns are exactly the last R whole turns
 * (`tail_turns: R` with a budget as large as the window, so no turn is cut for size). Any other
 * group or message count has no counterpart.
 */
function tailOf(s: ActiveStep, config: CompactionConfig, threshold: number | null): Tail {
  const ref = reference().summarize
  const unit = s.params.preserveRecentGroups !== undefined ? 'Groups' : 'Messages'
  const refUnit = ref.preserveRecentGroups !== undefined ? 'Groups' : 'Messages'
  const name = `preserveRecent${unit}`
  const count = s.params[name] as number
  const turns = config.protections.recentTurns
  const usable = threshold ?? usableTokens(config)
  const budget = defaultPreserveRecentTokens(usable)
  const standIn = unit === refUnit && count === ref[name]
  if (turns > 0) {
    const keys = { tail_turns: turns, preserve_recent_tokens: Math.max(budget, usable) }
    const words = `keeping the last ${turns} user turn(s) verbatim`
    if (unit === 'Groups' && count === 0) return { keys, warnings: [], words }
    return {
      keys,
      words,
      warnings: [
        paramWarning(
          s,
          name,
          LABEL,
          `counts its tail in user turns, not ${unit.toLowerCase()} (${count})`,
          `the protected last ${turns} user turn(s) are the tail (tail_turns ${turns})`,
        ),
      ],
    }
  }
  if (unit === 'Groups' && count === 0)
    return { keys: { tail_turns: 0 }, warnings: [], words: 'keeping nothing after it' }
  const words = `keeping the recent turns that fit in ${fmt(budget)} tokens`
  if (standIn) return { keys: {}, warnings: [], words }
  return {
    keys: {},
    words,
    warnings: [
      paramWarning(
        s,
        name,
        LABEL,
        `cannot keep the last ${count} ${unit.toLowerCase()}; it keeps whole recent user turns (tail_turns, no limit by default) within preserve_recent_tokens (default here ${fmt(budget)} tokens, a quarter of the usable window within 2,000–15,000)`,
        'opencode’s built-in token tail applies',
      ),
    ],
  }
}

function pruneWarnings(s: ActiveStep): LossyWarning[] {
  const out = builtinWarnings(s, PRUNE_BUILTINS, reference().prune)
  if (s.step.trigger)
    out.push(
      warning(
        `${s.path}.trigger`,
        'opencode prunes after every assistant turn; the prune has no trigger of its own.',
        'pruning runs after every turn, limited only by its built-in token rules',
      ),
    )
  return out
}

function exportOpencode(config: CompactionConfig): TargetOutput {
  const warnings: LossyWarning[] = []
  const notes: string[] = []
  const usable = usableTokens(config)
  let prune: ActiveStep | undefined
  let summarize: ActiveStep | undefined
  for (const s of activeSteps(config)) {
    if (s.step.strategy === 'prune-tool-outputs') {
      if (prune) warnings.push(duplicateStep(s, prune, LABEL))
      else prune = s
    } else if (s.step.strategy === 'summarize') {
      if (summarize) warnings.push(duplicateStep(s, summarize, LABEL))
      else summarize = s
    } else
      warnings.push(
        unsupportedStep(s, LABEL, 'prunes old tool outputs and summarises a full context'),
      )
  }

  // Both switches are always written. `auto` defaults to on, so a config without a summary must
  // say false; `prune` runs only when it is true (opencode-ai 1.18.33: "default: false" in its
  // config schema, and SessionCompaction.prune returns unless compaction.prune is set).
  const compaction: Record<string, unknown> = { auto: summarize !== undefined, prune: !!prune }
  const ordered: Ordered[] = []
  const sentence: string[] = []
  if (prune) {
    pushAll(warnings, pruneWarnings(prune))
    ordered.push({ step: prune, target: targetTokens(prune, usable), runsOver: null })
    sentence.push(
      'after every turn clears the output of tool calls older than the newest 40,000 tokens of tool output (never in the last 2 user turns, never `skill`) whenever that frees more than 20,000 tokens',
    )
    if (prune.params.faithful !== true)
      notes.push(
        'opencode stops its prune walk at the first output it already cleared, so older outputs behind it stay (issue #30807); the lab steps over it. Set `faithful: true` on the prune step to preview opencode exactly.',
      )
  }
  let tailKept = false
  if (summarize) {
    const { tokens, warnings: tw } = summaryThreshold(summarize, usable)
    const tail = tailOf(summarize, config, tokens)
    tailKept = 'tail_turns' in tail.keys && config.protections.recentTurns > 0
    pushAll(warnings, [
      ...tw,
      ...tail.warnings,
      ...builtinWarnings(summarize, SUMMARY_BUILTINS, reference().summarize),
    ])
    ordered.push({ step: summarize, target: targetTokens(summarize, usable), runsOver: tokens })
    const limit = config.window.contextTokens
    if (tokens === null) {
      warnings.push(
        warning(
          `${summarize.path}.trigger`,
          'opencode summarises only when the context reaches its usable window; a summarize step without a trigger runs on every request.',
          'opencode summarises at its default usable window (model limit minus min(20,000, max output))',
        ),
      )
      sentence.push(
        `summarises the history before its tail (${tail.words}) once the usage reaches the model's input limit minus min(20,000, its maximum output)`,
      )
    } else {
      const reserved = limit - tokens
      if (reserved < 0)
        warnings.push(
          warning(
            `${summarize.path}.trigger`,
            `The summary threshold (${fmt(tokens)} tokens) is above the ${fmt(limit)}-token window; opencode cannot reserve a negative amount.`,
            'reserved is 0: opencode summarises when the model limit is reached',
          ),
        )
      compaction.reserved = Math.max(0, reserved)
      const at = Math.min(tokens, limit)
      sentence.push(
        `summarises the history before its tail (${tail.words}) once the usage the provider reports reaches ${fmt(at)} tokens on a model whose input limit is ${fmt(limit)}`,
      )
      // packages/opencode/src/session/overflow.ts:7-29 (anomalyco/opencode 08f74b9, the same
      // logic in the opencode-ai 1.18.33 binary): usable = input limit − reserved only when the
      // model's catalogue entry has an input limit; otherwise context − max output, and
      // `reserved` is not read at all. Overflow is usage >= usable.
      notes.push(
        `reserved (${fmt(Math.max(0, reserved))}) only counts on a model whose catalogue entry has an input limit: opencode then summarises at that limit minus ${fmt(Math.max(0, reserved))} (${fmt(at)} tokens when the limit is ${fmt(limit)}, the window of this config). On a model without an input limit opencode ignores reserved and summarises at its context limit minus its maximum output tokens.`,
      )
    }
    Object.assign(compaction, tail.keys)
    if (Object.keys(tail.keys).length === 0)
      notes.push(
        `opencode keeps as the summary's tail the recent user turns that fit in preserve_recent_tokens (unset: a quarter of the usable window within 2,000–15,000, so ${fmt(defaultPreserveRecentTokens(tokens ?? usable))} tokens here), with no limit on their number; the lab's ${tailName(summarize)} stand in for that tail.`,
      )
    notes.push(
      'opencode triggers on the token usage the provider reported for the last call (input, output and cache tokens together), or on a provider overflow error, not on a local count.',
    )
  }
  pushAll(warnings, targetWarnings(ordered, LABEL))
  if (prune || summarize)
    pushAll(
      warnings,
      protectionWarnings(config, LABEL, protectionsLost(config, prune, summarize, tailKept)),
    )
  pushAll(warnings, fallbackWarnings(config, LABEL))
  if (prune)
    notes.push(
      'The environment variable OPENCODE_DISABLE_PRUNE turns pruning off whatever the file says (OPENCODE_DISABLE_AUTOCOMPACT does the same for the summary).',
    )
  const summary =
    sentence.length === 0
      ? `${LABEL} never compacts: automatic summaries and pruning are both off.`
      : `${LABEL} ${sentence.join(', and ')}.`
  return {
    target: 'opencode',
    fileName: 'opencode.json',
    language: 'jsonc',
    // opencode reads opencode.json as JSONC, so the summary can ride along as a comment.
    text: `// ${summary}\n${json({ $schema: 'https://opencode.ai/config.json', compaction })}`,
    summary,
    warnings,
    notes,
  }
}

/**
 * Which protections opencode loses. Protected tools survive only the prune, and only when they
 * are the prune's own protected tools; a summary covers everything before its tail.
 */
function protectionsLost(
  config: CompactionConfig,
  prune: ActiveStep | undefined,
  summarize: ActiveStep | undefined,
  tailKept: boolean,
): ('recentTurns' | 'pinned' | 'tools')[] {
  const pruneTools = (prune?.params.protectedTools as readonly string[] | undefined) ?? []
  const toolsKept = !summarize && config.protections.tools.every((t) => pruneTools.includes(t))
  // The prune never touches the last 2 user turns; the summary keeps them through tail_turns.
  const turnsKept = (!prune || config.protections.recentTurns <= 2) && (!summarize || tailKept)
  return [
    ...(turnsKept ? [] : (['recentTurns'] as const)),
    'pinned',
    ...(toolsKept ? [] : (['tools'] as const)),
  ]
}

/** opencode `opencode.json` `compaction` settings (reproduces the `opencode` preset). */
export const opencodeTarget: ExportTarget = {
  id: 'opencode',
  label: LABEL,
  preset: 'opencode',
  export: exportOpencode,
}
