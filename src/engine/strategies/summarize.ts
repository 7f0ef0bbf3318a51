import { z } from 'zod'
import type { StrategyContext } from '../compaction/context.ts'
import type { Prepared } from '../compaction/prepared.ts'
import { defineStrategy } from '../compaction/strategy.ts'
import type { Message } from '../model.ts'
import type { SummaryRequest } from '../summarize/types.ts'
import { tailByMessages } from './preserve-tail.ts'
import { truncateAfterFailure } from './summarize/fallback.ts'
import { tailOfLiveGroups } from './summarize/tail.ts'
import { boundInput, planCoverage, previousSummaryText } from './summarize/select.ts'
import { falaiGate, fmt, lastGroupIndex, openTier } from './tool-result-budget/falai.ts'
import { withFields } from '../objects.ts'
import { internParams } from './intern-params.ts'
import { createStepRecords } from './step-records.ts'

/** @falai/agent's auto_compact prompt (the transcript lines `[role]: content` follow it). */
export const FALAI_SUMMARY_PROMPT =
  'Summarize the following conversation concisely, preserving key facts, decisions, and context:'
export const FALAI_SUMMARY_PREFIX = '[Conversation Summary]\n'

const THRESHOLD_MESSAGE = 'compactionThreshold must be between 0.5 and 0.95'

const schema = z.object({
  /** Budget the gate and the truncation fallback measure against (default: the usable window). */
  maxTokens: z.number().positive('maxTokens must be > 0').optional(),
  /** Run only at or over maxTokens × this (falai); null: no gate of its own (pipeline triggers). */
  compactionThreshold: z
    .number()
    .min(0.5, THRESHOLD_MESSAGE)
    .max(0.95, THRESHOLD_MESSAGE)
    .nullable()
    .default(0.8),
  /** Preserved tail in messages, extended to whole groups (falai preserveRecentCount, MAF target_count). */
  preserveRecentMessages: z
    .number()
    .int('preserveRecentMessages must be a whole number')
    .min(1, 'preserveRecentMessages must be >= 1')
    .default(4),
  /** Preserved tail in groups instead (overrides preserveRecentMessages when set). */
  preserveRecentGroups: z
    .number()
    .int('preserveRecentGroups must be a whole number')
    .min(0, 'preserveRecentGroups must be >= 0')
    .optional(),
  prompt: z.string().min(1, 'prompt must not be empty').default(FALAI_SUMMARY_PROMPT),
  summaryPrefix: z.string().default(FALAI_SUMMARY_PREFIX),
  role: z.enum(['system', 'user', 'assistant']).default('system'),
  /** `first`: before everything (falai); `at_first_covered`: where the summarised span began (MAF). */
  placement: z.enum(['first', 'at_first_covered']).default('first'),
  /** Bound on the summariser's input in tokens, prompt included (MAF 8,000); null: unbounded. */
  maxSummaryInputTokens: z
    .number()
    .int('maxSummaryInputTokens must be a whole number')
    .positive('maxSummaryInputTokens must be > 0')
    .nullable()
    .default(null),
  maxOutputTokens: z
    .number()
    .int('maxOutputTokens must be a whole number')
    .positive('maxOutputTokens must be > 0')
    .default(1024),
  /** When the summary fails: falai truncates the oldest groups; MAF/opencode leave history as is. */
  onFailure: z.enum(['truncate', 'fail_open']).default('truncate'),
  faithful: z.boolean().default(false),
})

export type SummarizeParams = z.infer<typeof schema>

/** An inserted summary's text without the prefix it was written with. */
function insertedSummaryText(message: Message, prefix: string): string {
  const text = message.parts
    .map((part) => (part.kind === 'text' ? part.text : ''))
    .join('')
    .trim()
  const head = prefix.trim()
  return head && text.startsWith(head) ? text.slice(head.length).trim() : text
}

/** The covered groups' messages as they are now (stubs and trims applied), in order. */
function projectedMessages(ctx: StrategyContext, groups: readonly number[]): Message[] {
  const kept = projectionsOf(ctx.view.prepared)
  const out: Message[] = []
  // Covered groups come oldest first and a group's messages are ascending, so the sort below is
  // nearly never needed (it ran on 10,000 indexes per re-plan); the messages are projected as
  // they are met, without an array of their indexes first.
  let ascending = true
  let previous = -1
  for (const g of groups) {
    for (const m of ctx.view.messagesOf(g)) {
      if (m < previous) ascending = false
      previous = m
      out.push(projectedMessage(ctx, m, kept))
    }
  }
  if (ascending) return out
  const indexes: number[] = []
  for (const g of groups) for (const m of ctx.view.messagesOf(g)) indexes.push(m)
  indexes.sort((a, b) => a - b)
  return indexes.map((m) => projectedMessage(ctx, m, kept))
}

// The copy of a changed message, kept while its current parts are the same objects (the
// strategies before this one hand back one replacement object per part and params): a re-plan
// then gives the summariser the same message objects, and the offline digest reads each once
// (summarize/digest-facts.ts) instead of once per re-plan. Kept per prepared conversation by
// message index (an array read, not a map lookup, for each of thousands of changed messages);
// the parts are compared, never assumed.
const projections = new WeakMap<Prepared, (Message | undefined)[]>()

function projectionsOf(prepared: Prepared): (Message | undefined)[] {
  let kept = projections.get(prepared)
  if (!kept) {
    kept = new Array<Message | undefined>(prepared.conversation.messages.length)
    projections.set(prepared, kept)
  }
  return kept
}

function projectedMessage(ctx: StrategyContext, m: number, kept: (Message | undefined)[]): Message {
  const message = ctx.conversation.messages[m] as Message
  if (!ctx.view.hasOverrides(m)) return message
  const last = kept[m]
  if (last && holdsCurrentParts(ctx, m, last.parts)) return last
  const made: Message = withFields(message, { parts: ctx.view.currentParts(m) })
  kept[m] = made
  return made
}

/** Are `parts` exactly the message's current parts (removed ones dropped), object for object? */
function holdsCurrentParts(ctx: StrategyContext, m: number, parts: readonly unknown[]): boolean {
  const count = ctx.conversation.messages[m]?.parts.length ?? 0
  let k = 0
  for (let i = 0; i < count; i++) {
    const part = ctx.view.partAt(m, i)
    if (part === null) continue
    if (parts[k] !== part) return false
    k++
  }
  return k === parts.length
}

async function callSummarizer(
  ctx: StrategyContext,
  request: SummaryRequest,
  faithful: boolean,
): Promise<{ text: string } | { failure: string; fixed?: string }> {
  if (!ctx.summarizer) return { failure: 'no summariser is configured' }
  try {
    const result = await ctx.summarizer.summarize(request)
    if (!result.ok) return { failure: result.error }
    if (!faithful && result.text.trim() === '') {
      return {
        failure: 'the summariser returned an empty summary',
        fixed: 'falai would have inserted the empty summary',
      }
    }
    return { text: result.text }
  } catch (error) {
    return { failure: error instanceof Error ? error.message : String(error) }
  }
}

/**
 * This step's runs, played back on a view in the state one started from (step-records.ts): it
 * reads the view, the protections, its (interned) params, the usable window (without maxTokens)
 * and the summariser, recorded only when the summariser's text is a function of its request.
 */
const records = createStepRecords()

export const summarizeStrategy = defineStrategy({
  id: 'summarize',
  label: 'Summarize older history',
  source:
    '@falai/agent (auto_compact); also Microsoft Agent Framework summarization, opencode compact',
  description:
    'Replaces the live groups before the preserved tail with one summary message written by the injected summariser. Defaults are @falai/agent\'s auto_compact: run only at or over maxTokens × 0.8, keep the last 4 messages (always whole groups here), prompt "Summarize the following conversation concisely, preserving key facts, decisions, and context:", 1,024 output tokens, a system message "[Conversation Summary]\\n…" placed first, and on failure falai\'s aggressive truncation (oldest groups dropped while over the threshold). Earlier summaries are covered and passed as the previous summary. Placement, role, prefix, prompt, tail unit, an input budget (MAF) and fail-open are configurable. Fixed mode keeps the system prompt and rejects empty summaries; faithful mode reproduces falai (system prompt summarised when not protected, estimate, split call recorded).',
  schema,
  async run(ctx, params) {
    const p = internParams('summarize', params)
    const summarizer = ctx.summarizer
    // An LLM's summary is asked for on every run; the digest's is a function of the request.
    if (summarizer && summarizer.valueKey === undefined) return summarize(ctx, p)
    // It reads the usable window when maxTokens is not set (falai.ts), and the summariser.
    const inputs = [
      summarizer?.valueKey ?? null,
      p.maxTokens === undefined ? ctx.window.usable : null,
    ]
    await records.runAsync(ctx, p, inputs, () => summarize(ctx, p))
  },
})

async function summarize(ctx: StrategyContext, p: SummarizeParams): Promise<void> {
  // Without a threshold the summary always runs; the gate still describes the measure.
  const gate = p.compactionThreshold === null ? falaiGate(ctx, p) : openTier(ctx, p, 'Summary')
  if (!gate) return
  const tail =
    p.preserveRecentGroups !== undefined
      ? tailOfLiveGroups(ctx, p.preserveRecentGroups)
      : tailByMessages(ctx, p.preserveRecentMessages)
  const coverage = planCoverage(ctx, tail, {
    faithful: p.faithful,
    summaryPrefix: p.summaryPrefix,
  })
  if (coverage.candidates.length === 0) {
    ctx.skip(
      lastGroupIndex(ctx),
      'keep_recent',
      `Nothing to summarise: every live group is in the preserved tail (${tail.label}) or kept verbatim`,
    )
    return
  }
  const selected = boundInput(ctx, coverage.candidates, p.maxSummaryInputTokens, p.prompt)
  if (selected.length === 0) {
    ctx.skip(
      coverage.candidates[0] as number,
      'summary_failed',
      `No summary: no group fits the summariser input budget of ${fmt(p.maxSummaryInputTokens ?? 0)} tokens; history left unchanged (fail-open)`,
    )
    return
  }

  // Replay records no refusals: when the insert below would be refused for a covered group (its
  // protection, or a part a stub still in the context relies on — the same test `ctx.insert`
  // makes first) and a failed summary would change nothing either (no truncation fallback),
  // either way nothing changes, so the summary is not written. On the generated 50 MB session
  // (recommended) the digest was written at 3,135 of 4,353 calls, every one refused (newest copy).
  if (
    !ctx.recordNonChanges &&
    p.onFailure !== 'truncate' &&
    selected.some((g) => ctx.protectionOf(g) !== null || ctx.view.holdsNewestCopy(g))
  )
    return

  // Messages inserted at earlier model calls (replay keeps one view: an earlier summary, a
  // digest) that sit before the tail are summarised with the rest — every summarising system
  // does so with its own earlier summary message — instead of staying beside the new summary.
  const absorbed = ctx.view.summaries().filter((s) => !tail.groups.has(s.anchor))
  const previous = [
    ...absorbed.map((s) => insertedSummaryText(s.message, p.summaryPrefix)),
    ...selected
      .filter((g) => coverage.previous.has(g))
      .map((g) => previousSummaryText(ctx, g, p.summaryPrefix)),
  ].filter(Boolean)
  const fresh = selected.filter((g) => !coverage.previous.has(g))
  const request: SummaryRequest = {
    messages: projectedMessages(ctx, fresh),
    instructions: p.prompt,
    ...(previous.length > 0 ? { previousSummary: previous.join('\n\n') } : {}),
    maxOutputTokens: p.maxOutputTokens,
  }
  const outcome = await callSummarizer(ctx, request, p.faithful)

  if ('failure' in outcome) {
    const fallback = p.onFailure === 'truncate'
    ctx.skip(
      selected[0] as number,
      'summary_failed',
      `Summary failed (${outcome.failure})` +
        (outcome.fixed ? ` — ${outcome.fixed}` : '') +
        (fallback
          ? '; falling back to aggressive truncation of the oldest groups (falai)'
          : '; history left unchanged (fail-open)'),
    )
    if (fallback) {
      // Earlier summaries are never dropped by the fallback: summaries inserted earlier in this
      // run are not groups, so dropping them only when re-run on the projection would make the
      // pipeline non-idempotent.
      const droppable = coverage.candidates.filter(
        (g) => ctx.view.prepared.grouping.groups[g]?.kind !== 'summary',
      )
      truncateAfterFailure(ctx, droppable, gate, outcome.failure, p.faithful)
    }
    return
  }

  const first = ctx.groups()[0]?.index ?? 0
  const anchor = p.placement === 'first' ? first : (selected[0] as number)
  const by = ctx.summarizer
    ? `${ctx.summarizer.label}${ctx.summarizer.isLlm ? '' : ' (an extractive digest, not a model)'}`
    : 'the summariser'
  const gateText = p.compactionThreshold === null ? '' : `; ${gate.text}`
  ctx.insert(
    {
      role: p.role,
      parts: [{ kind: 'text', text: `${p.summaryPrefix}${outcome.text}` }],
      covers: selected,
      anchor,
      position: 'before',
      absorbs: absorbed.map((s) => s.message.id),
    },
    'summarized',
    `Summarised ${selected.length} group(s) (${request.messages.length} message(s)` +
      (previous.length > 0 ? `, carrying ${previous.length} earlier summary(ies) forward` : '') +
      `) before the preserved tail (${tail.label}) into one ${p.role} message placed ` +
      (p.placement === 'first' ? 'first' : 'where the summarised span began') +
      `, written by ${by}${gateText}`,
    coverage.fixed.length > 0 ? { fixed: coverage.fixed.join('; ') } : {},
  )
}
