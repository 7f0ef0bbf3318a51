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

/** The preserved tail: groups when set (they override messages), else messages. */
function tailWarnings(s: ActiveStep): LossyWarning[] {
  const ref = reference().summarize
  const unit = s.params.preserveRecentGroups !== undefined ? 'Groups' : 'Messages'
  const refUnit = ref.preserveRecentGroups !== undefined ? 'Groups' : 'Messages'
  const name = `preserveRecent${unit}`
  if (unit === refUnit && s.params[name] === ref[name]) return []
  return [
    paramWarning(
      s,
      name,
      LABEL,
      `cannot keep the last ${String(s.params[name])} ${unit.toLowerCase()}; it keeps its own tail of recent user turns (tail_turns, default 2) within a token budget (preserve_recent_tokens)`,
      'opencode’s built-in tail applies',
    ),
  ]
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

  // `prune` is always written: upstream reads an unset value as off although its schema says
  // the default is on (opencode issue #24108).
  const compaction: Record<string, unknown> = { auto: summarize !== undefined, prune: !!prune }
  const ordered: Ordered[] = []
  if (prune) {
    pushAll(warnings, pruneWarnings(prune))
    ordered.push({ step: prune, target: targetTokens(prune, usable), runsOver: null })
    if (prune.params.faithful !== true)
      notes.push(
        'opencode stops its prune walk at the first output it already cleared, so older outputs behind it stay (issue #30807); the lab steps over it. Set `faithful: true` on the prune step to preview opencode exactly.',
      )
  }
  if (summarize) {
    const { tokens, warnings: tw } = summaryThreshold(summarize, usable)
    pushAll(warnings, [
      ...tw,
      ...tailWarnings(summarize),
      ...builtinWarnings(summarize, SUMMARY_BUILTINS, reference().summarize),
    ])
    ordered.push({ step: summarize, target: targetTokens(summarize, usable), runsOver: tokens })
    if (tokens === null) {
      warnings.push(
        warning(
          `${summarize.path}.trigger`,
          'opencode summarises only when the context reaches its usable window; a summarize step without a trigger runs on every request.',
          'opencode summarises at its default usable window (model limit minus min(20,000, max output))',
        ),
      )
    } else {
      const reserved = config.window.contextTokens - tokens
      if (reserved < 0)
        warnings.push(
          warning(
            `${summarize.path}.trigger`,
            `The summary threshold (${fmt(tokens)} tokens) is above the ${fmt(config.window.contextTokens)}-token window; opencode cannot reserve a negative amount.`,
            'reserved is 0: opencode summarises when the model limit is reached',
          ),
        )
      compaction.reserved = Math.max(0, reserved)
      notes.push(
        `reserved (${fmt(Math.max(0, reserved))}) makes opencode summarise at ${fmt(Math.max(0, tokens))} tokens on a model with a ${fmt(config.window.contextTokens)}-token input limit; opencode takes the limit from the model catalogue, and for models without an input limit it also subtracts the model's maximum output.`,
      )
    }
    notes.push(
      'opencode triggers on the token usage the provider reported for the last call (or a provider overflow error), not on a local count.',
    )
  }
  pushAll(warnings, targetWarnings(ordered, LABEL))
  if (prune || summarize)
    pushAll(warnings, protectionWarnings(config, LABEL, protectionsLost(config, prune, summarize)))
  pushAll(warnings, fallbackWarnings(config, LABEL))
  if (prune)
    notes.push(
      'The environment variable OPENCODE_DISABLE_PRUNE turns pruning off whatever the file says.',
    )
  return {
    target: 'opencode',
    fileName: 'opencode.json',
    language: 'json',
    text: json({ $schema: 'https://opencode.ai/config.json', compaction }),
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
): ('recentTurns' | 'pinned' | 'tools')[] {
  const pruneTools = (prune?.params.protectedTools as readonly string[] | undefined) ?? []
  const toolsKept = !summarize && config.protections.tools.every((t) => pruneTools.includes(t))
  return toolsKept ? ['recentTurns', 'pinned'] : ['recentTurns', 'pinned', 'tools']
}

/** opencode `opencode.json` `compaction` settings (reproduces the `opencode` preset). */
export const opencodeTarget: ExportTarget = {
  id: 'opencode',
  label: LABEL,
  preset: 'opencode',
  export: exportOpencode,
}
