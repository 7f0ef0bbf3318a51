import { z } from 'zod'
import { defineStrategy } from '../compaction/strategy.ts'
import type { Sentence } from '../compaction/sentence.ts'
import type { ChangeOptions, StrategyContext, SummaryInsert } from '../compaction/context.ts'
import type { Group } from '../groups.ts'
import type { TextPart } from '../model.ts'
import { DIGEST_MAX_CHARS, digestPartOf, type Digest } from './collapse-tool-results/digest.ts'
import { label } from './truncation/metrics.ts'
import { internParams } from './intern-params.ts'
import type { Out } from './playback.ts'
import { createStepRecords } from './step-records.ts'

const schema = z.object({
  /** Newest included tool_call groups left verbatim; 0 collapses all (MAF `keep_last_tool_call_groups`). */
  keepLastToolCallGroups: z
    .number()
    .int('keepLastToolCallGroups must be a whole number')
    .min(0, 'keepLastToolCallGroups must be greater than or equal to 0')
    .default(1),
  /** Cap on the digest text, marker included (MAF PR #7396: 4096). */
  maxSummaryChars: z
    .number()
    .int('maxSummaryChars must be a whole number')
    .min(32, 'maxSummaryChars must be at least 32')
    .default(DIGEST_MAX_CHARS),
  /** Reproduce MAF before PR #7396: unbounded digest, collapse even when it saves nothing. */
  faithful: z.boolean().default(false),
})

export type CollapseToolResultsParams = z.infer<typeof schema>

/**
 * This step's runs, played back on a view in the state one started from (step-records.ts): it
 * reads the view, the protections and its params only (no window, round or summariser).
 */
const records = createStepRecords()
const NO_INPUTS = [] as const

const NO_OPTIONS: ChangeOptions = {}
const GROWTH: ChangeOptions = { allowGrowth: true }

/**
 * The fixes noted on a capped digest's insert, per digest (memoised per group and cap in
 * digest.ts): the same objects on every re-plan instead of a sentence and a record per capped
 * group per edit.
 */
const fixedOptions = new WeakMap<Digest, { fixed: ChangeOptions; faithful: ChangeOptions }>()

/** The insert's options: shared objects unless a fix is noted (thousands of collapses per re-plan). */
function optionsFor(p: CollapseToolResultsParams, digest: Digest): ChangeOptions {
  // Faithful MAF inserts the digest whatever its size (issue #7393).
  if (!digest.truncated) return p.faithful ? GROWTH : NO_OPTIONS
  let made = fixedOptions.get(digest)
  if (!made) {
    const fixed = `MAF before PR #7396 would have inserted the full ${digest.fullLength}-character digest, keeping the payload it was meant to evict (issue #7393)`
    made = { fixed: { fixed }, faithful: { allowGrowth: true, fixed } }
    fixedOptions.set(digest, made)
  }
  return p.faithful ? made.faithful : made.fixed
}

/**
 * One group's collapse: its sentence's words after the params' number, and the insert it asks
 * for — what it was made from (the digest part, memoised per group's results, see digest.ts;
 * both token figures; the cap when it cut the digest).
 */
interface Collapse {
  readonly part: TextPart
  readonly before: number
  readonly tokens: number
  /** The cap named in the sentence (a cut digest), or null. */
  readonly cap: number | null
  /** "<label>: … digest[, capped at …] (before → after tokens)", written when read. */
  readonly rest: () => string
  readonly insert: SummaryInsert
  /** The sentence last handed out, unwritten, and the params' words (`lead`) it opens with. */
  sentence: Sentence | null
  lead: string
}

/**
 * The last collapse of each group, reused while the digest part, both token figures and the
 * named cap are the same — whatever else the params say: a re-plan collapses thousands of groups,
 * their sentences and insert records outlive the round in its decisions, and an edit of
 * keepLastToolCallGroups changes only the number every sentence opens with.
 */
const collapses = new WeakMap<Group, Collapse>()

/** The collapse's sentence after `lead`: the same function while the lead is (every re-plan). */
function sentenceOf(made: Collapse, lead: string): Sentence {
  if (made.sentence !== null && made.lead === lead) return made.sentence
  made.lead = lead
  made.sentence = () => lead + made.rest()
  return made.sentence
}

function collapseOf(
  g: Group,
  p: CollapseToolResultsParams,
  digest: Digest,
  part: TextPart,
  before: number,
  tokens: number,
): Collapse {
  const cap = digest.truncated ? p.maxSummaryChars : null
  const hit = collapses.get(g)
  if (hit && hit.part === part && hit.before === before && hit.tokens === tokens && hit.cap === cap)
    return hit
  const capped = cap !== null ? `, capped at ${cap} characters from ${digest.fullLength}` : ''
  const made: Collapse = {
    part,
    before,
    tokens,
    cap,
    rest: () => `${what(g, digest)}${capped} (${before} → ${tokens} tokens)`,
    insert:
      hit && hit.part === part
        ? hit.insert
        : {
            role: 'assistant',
            parts: [part],
            covers: [g.index],
            anchor: g.index,
            position: 'before',
          },
    sentence: null,
    lead: '',
  }
  collapses.set(g, made)
  return made
}

/** "Tool-result collapse: older than the newest N tool_call groups; collapsed ", per params. */
const leads = new WeakMap<CollapseToolResultsParams, string>()

function leadOf(p: CollapseToolResultsParams): string {
  let lead = leads.get(p)
  if (lead === undefined) {
    lead = `Tool-result collapse: older than the newest ${p.keepLastToolCallGroups} tool_call groups; collapsed `
    leads.set(p, lead)
  }
  return lead
}

/** "<label>: 3 results into a 1,024-character digest", for the sentences. */
function what(g: Group, digest: Digest): string {
  return `${label(g)}: ${digest.results} results into a ${digest.text.length}-character digest`
}

export const collapseToolResultsStrategy = defineStrategy<CollapseToolResultsParams>({
  id: 'collapse-tool-results',
  label: 'Collapse tool results into a digest',
  source: 'Microsoft Agent Framework (Python) ToolResultCompactionStrategy',
  description:
    'Every included tool_call group older than the newest keepLastToolCallGroups (MAF default 1) is replaced by ' +
    'one assistant message inserted at the group’s start, whose text is exactly `[Tool results: <tool>: <result>; …]` ' +
    '(`[Tool results: no results]` when none); the group is excluded atomically with the insert, and the decision ' +
    'records the summary id and the groups it covers. Only results still present are used: a result an earlier ' +
    'step removed is not resurrected (MAF PR #7391). The digest is capped at maxSummaryChars (4096, marker ' +
    '`... [truncated]` included: PR #7396); a collapse that would not save tokens is skipped (no_savings). ' +
    'faithful: true reproduces MAF before the fix — unbounded digests (issue #7393) and no savings check. Inserted ' +
    'digests form summary groups and are never collapsed again (idempotent). Reason: tool_result_compaction.',
  schema,
  run(ctx, params) {
    // The same params value as an earlier re-plan is that re-plan's object: the per-group
    // collapses (sentences, insert records) are keyed on it (intern-params.ts).
    const p = internParams('collapse-tool-results', params)
    records.run(ctx, p, NO_INPUTS, () => collapse(ctx, p))
  },
})

function collapse(ctx: StrategyContext, p: CollapseToolResultsParams): void {
  const out: Out = ctx
  // The included tool_call groups, oldest first (one array, no filter callback per re-plan).
  const toolGroups: Group[] = []
  for (const g of ctx.groups())
    if (g.kind === 'tool_call' && !ctx.view.isExcluded(g.index)) toolGroups.push(g)
  const cut = toolGroups.length - p.keepLastToolCallGroups
  if (cut <= 0) {
    const g = toolGroups[0] ?? ctx.groups().at(-1)
    if (g) {
      out.skip(
        g.index,
        'below_threshold',
        `Tool-result collapse: ${toolGroups.length} included tool_call groups, not more than keepLastToolCallGroups ${p.keepLastToolCallGroups}; nothing collapsed`,
      )
    }
    return
  }
  const framing = ctx.view.prepared.framing.perMessage
  const cap = p.faithful ? null : p.maxSummaryChars
  const lead = leadOf(p)
  for (let i = 0; i < cut; i++) {
    const g = toolGroups[i] as Group
    const { digest, part } = digestPartOf(ctx, g, cap)
    const tokens = ctx.view.price(part, 'assistant') + framing
    const before = ctx.view.groupTokens(g.index)
    if (!p.faithful && tokens >= before) {
      out.skip(
        g.index,
        'no_savings',
        () =>
          `Tool-result collapse of ${what(g, digest)} not applied: the digest (${tokens} tokens) is not smaller than the group (${before} tokens)`,
      )
      continue
    }
    const made = collapseOf(g, p, digest, part, before, tokens)
    const detail = sentenceOf(made, lead)
    out.insert(made.insert, 'tool_result_compaction', detail, optionsFor(p, digest))
  }
  const kept = toolGroups.slice(cut)
  const first = kept[0]
  if (first) {
    out.skip(
      first.index,
      'keep_recent',
      () =>
        `Tool-result collapse: kept the newest ${kept.length} tool_call groups verbatim (${kept.map((g) => g.id).join(', ')})`,
    )
  }
}
