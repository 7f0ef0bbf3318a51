/**
 * `supersede-stale-results` — llm-interactive-proxy's stale tool output compaction.
 *
 * Tool results are keyed by the resource their call touched (file path + read range, command,
 * search); every result older than the newest for its resource is replaced by a stub that says a
 * newer result exists. Fixed mode also reads shell read commands as resources (`shell.ts`) and lets
 * an edit of a file outdate earlier reads of it (`writes.ts`). See `supersede-stale-results/` for categories, identity, stub text and the
 * planning core, and engines.md §3 for the source-level description of LIP.
 */
import { z } from 'zod'
import type { StrategyContext } from '../compaction/context.ts'
import { defineStrategy } from '../compaction/strategy.ts'
import { CATEGORY_INPUTS, type CategoryInput } from './supersede-stale-results/categories.ts'
import { collectResults, type ResultInfo } from './supersede-stale-results/collect.ts'
import { droppableGroups, LazyDrops, type DropLookup } from './supersede-stale-results/droppable.ts'
import { lipEstimate } from './supersede-stale-results/lip-estimate.ts'
import { annotateLast, skipWith } from './supersede-stale-results/notes.ts'
import type { Outcome } from './supersede-stale-results/plan.ts'
import { planResults } from './supersede-stale-results/replan.ts'
import {
  keepDrops,
  planKey,
  sharedDrops,
  sharedWords,
  type SharedWords,
  unsharedWords,
  wordsKey,
} from './supersede-stale-results/shared.ts'
import {
  LIP_STUB_TEMPLATE,
  PLACEHOLDERS,
  literalLength,
  stubMatcher,
  unknownPlaceholders,
} from './supersede-stale-results/stub.ts'
import { actFor } from './supersede-stale-results/words.ts'
import { internParams } from './intern-params.ts'
import { createStepRecords } from './step-records.ts'
import { withFields } from '../objects.ts'

/** `CompactionConfig.default()`: the safe lists the LIP user guide documents. */
export const SAFE_ALLOWED: readonly CategoryInput[] = [
  'file_read',
  'view_file',
  'search',
  'list_dir',
  'test_execution',
]
export const SAFE_DENIED: readonly CategoryInput[] = ['file_write', 'command_execution']

const category = z.enum(CATEGORY_INPUTS, {
  error: (i) =>
    `unknown tool category ${JSON.stringify(i.input)}; expected one of ${CATEGORY_INPUTS.join(', ')}`,
})
const count = (what: string, min: number) =>
  z
    .number({ error: `${what} must be a number` })
    .int(`${what} must be a whole number`)
    .min(min, `${what} must be at least ${min}`)

export const supersedeStaleResultsSchema = z
  .object({
    /** Reproduce LIP's known bugs (see the description) instead of fixing them. */
    faithful: z.boolean().default(false),
    /** LIP `token_threshold`, on LIP's own Σ len(content)//4 estimate; applied in faithful mode only. */
    tokenThreshold: count('tokenThreshold', 0).default(100_000),
    allowedCategories: z.array(category).default([...SAFE_ALLOWED]),
    deniedCategories: z.array(category).default([...SAFE_DENIED]),
    allowedTools: z.array(z.string().min(1, 'tool names must not be empty')).default([]),
    deniedTools: z.array(z.string().min(1, 'tool names must not be empty')).default([]),
    /** LIP `preserve_last_n_results` (declared, unused by LIP; honoured in fixed mode). */
    preserveLastN: count('preserveLastN', 1).default(1),
    /** LIP `max_stubs_per_resource` (declared, unused by LIP); null = no limit. Fixed mode only. */
    maxStubsPerResource: count('maxStubsPerResource', 1).nullable().default(1),
    /** LIP `min_tool_output_tokens_to_compact`, by `len(text)//4` of the single output. */
    minToolOutputTokens: count('minToolOutputTokens', 0).default(250),
    /** LIP `stub_template` (declared, unused by LIP; honoured in fixed mode). */
    stubTemplate: z
      .string()
      .refine((t) => unknownPlaceholders(t).length === 0, {
        error: (i) =>
          `stubTemplate uses unknown placeholder(s) ${unknownPlaceholders(String(i.input))
            .map((n) => `{${n}}`)
            .join(', ')}; available: ${PLACEHOLDERS.map((n) => `{${n}}`).join(', ')}`,
      })
      .refine((t) => literalLength(t) >= 8, {
        error:
          'stubTemplate needs at least 8 characters of literal text so its stubs are recognised on a second run',
      })
      .default(LIP_STUB_TEMPLATE),
    /**
     * A write to a file (`apply_patch`, `Edit`/`Write`/`MultiEdit`, `str_replace_editor`, opencode
     * `edit`/`write`) makes earlier reads of it stale. Fixed mode only: LIP does not do it.
     */
    writesMakeStale: z.boolean().default(true),
    /** LIP `redact_resource_identifiers`: API keys and Bearer tokens in identifiers → `***`. */
    redactResourceIdentifiers: z.boolean().default(false),
  })
  .strict()

export type SupersedeStaleResultsParams = z.infer<typeof supersedeStaleResultsSchema>

/**
 * This step's runs, played back on a view in the state one started from (step-records.ts). It
 * reads the view, the protections and its params only: no window, round or summariser. Its own
 * caches (collections, plans, words, drops) are memos per prepared conversation, view or params
 * value; a played-back run leaves them as they were, which a later fresh run does not rely on.
 */
const records = createStepRecords()
const NO_INPUTS = [] as const

export const supersedeStaleResultsStrategy = defineStrategy({
  id: 'supersede-stale-results',
  label: 'Supersede stale tool results',
  source: 'llm-interactive-proxy',
  description:
    'Keys every tool result by the resource its call touched (file path + read range, command line, search pattern + path) and replaces results that a newer result for the same resource supersedes with "[COMPACTED] Previous output for <resource> (<N> bytes) was removed because a newer result for this resource exists later in the conversation." Defaults are LIP\'s: keep the last result per resource, skip outputs under 250 tokens (len/4), safe category lists (reads, views, searches, listings, tests compactable; writes and commands never). Fixed mode (default) keys commands by the whole command line and searches by pattern + path, normalises paths fully (./, .., cwd, Windows case), treats view_file ranges as distinct, lets a later full read supersede partial reads, recognises Claude Code/MCP tool names, reads `list_directory` as `list_dir`, reads shell commands that only read (`cat`, `sed -n a,bp`, `nl`, `head`/`tail`, `rg`/`grep`, `ls`/`find`/`tree`, `git show/diff/log`, in pipelines and `cd dir &&` chains) as the file, search or listing they read, lets a later read that covers an earlier range supersede it, marks reads of a file that a later edit changed as superseded by the write (writesMakeStale), and honours preserveLastN, maxStubsPerResource and stubTemplate, which LIP declares but ignores; the pipeline trigger decides when it runs. Faithful mode reproduces LIP, including its own tokenThreshold gate on Σ len(content)/4.',
  schema: supersedeStaleResultsSchema,
  run(ctx: StrategyContext, params: SupersedeStaleResultsParams) {
    const p = internParams('supersede-stale-results', params)
    records.run(ctx, p, NO_INPUTS, () => supersede(ctx, p))
  },
})

function supersede(ctx: StrategyContext, p: SupersedeStaleResultsParams): void {
  const groups = ctx.groups()
  let last: (typeof groups)[number] | undefined
  for (let i = groups.length - 1; i >= 0 && !last; i--) {
    const g = groups[i]
    if (g && !ctx.view.isExcluded(g.index)) last = g
  }
  if (!last) return
  if (p.faithful && p.tokenThreshold > 0) {
    const estimate = lipEstimate(ctx)
    if (estimate <= p.tokenThreshold) {
      ctx.skip(
        last.index,
        'below_threshold',
        `Nothing compacted: LIP's estimate of ${estimate} tokens (Σ len(content)//4) is not above tokenThreshold ${p.tokenThreshold} — LIP decision \`below_token_threshold\``,
      )
      return
    }
  }
  const template = p.faithful ? LIP_STUB_TEMPLATE : p.stubTemplate
  const results = collectResults(ctx, stubMatcher(template))
  // Replay records only changes: its carried plan need not keep the outcomes of the rest exact.
  const planned = planResults(ctx.view, results, p, !ctx.recordNonChanges)
  const outcomes: readonly Outcome[] = planned.out
  const stale = planned.stale()
  // Replay records only changes: when nothing is stale there is nothing more to do, and the
  // faithful twin plan (only used to word decisions) is not needed.
  if (!ctx.recordNonChanges && stale.length === 0) return
  // The faithful twin plan only words decisions: made when the first sentence needs it, and never
  // in a replay, which keeps no sentence (see `decideOne`).
  let lip: readonly Outcome[] | undefined
  const lipOutcomes = (): readonly Outcome[] =>
    (lip ??= p.faithful ? outcomes : planResults(ctx.view, results, faithfulTwin(p)).out)
  // Sentences and droppable groups of this collection under this params value (shared.ts);
  // a replay call's are its own.
  const words = ctx.recordNonChanges ? sharedWords(results, wordsKey(p)) : unsharedWords()
  // Droppable groups read the view: kept only for an untouched one (at the same limit).
  const untouched = ctx.view.changeMark === 0
  const kept = untouched ? sharedDrops(results, planKey(p)) : undefined
  let drops: DropLookup
  if (kept?.limit === ctx.view.limit) drops = kept.groups
  else if (untouched || ctx.recordNonChanges) {
    const groups = droppableGroups(ctx, results, outcomes, stale)
    if (untouched) keepDrops(results, planKey(p), { limit: ctx.view.limit, groups })
    drops = groups
  } else drops = new LazyDrops(ctx, results, outcomes)

  // Replay records only changes: only the results to stub or drop need sentences.
  const run: Deciding = { ctx, p, results, outcomes, drops, words, lipOutcomes, staleCount: 0 }
  if (ctx.recordNonChanges) for (let i = 0; i < results.length; i++) decideOne(run, i)
  else for (const i of stale) decideOne(run, i)
  // What these acts were made from, for another value's first run to compare (words.ts); the
  // lender is needed no longer (kept, each value would hold every earlier one alive).
  if (ctx.recordNonChanges) words.made ??= { p, outcomes: outcomes.slice(), lip: lip?.slice() }
  words.donor = undefined
  if (run.staleCount === 0 && ctx.recordNonChanges) {
    const identified = results.filter((r) => (p.faithful ? r.faithful : r.fixed).identity).length
    ctx.skip(
      last.index,
      'keep_recent',
      `Nothing compacted: no stale results — each of the ${identified} identified tool results is the newest for its resource — LIP decision \`no_stale_results\``,
    )
  }
}

/**
 * One run's state for {@link decideOne}. A module function reading it, not a closure declared in
 * every run: the closure made per run was compiled 5–7 times per isolate.
 */
interface Deciding {
  readonly ctx: StrategyContext
  readonly p: SupersedeStaleResultsParams
  readonly results: readonly ResultInfo[]
  readonly outcomes: readonly Outcome[]
  readonly drops: DropLookup
  readonly words: SharedWords
  readonly lipOutcomes: () => readonly Outcome[]
  /** Results the plan found stale (not newest, single, already stubbed or without identity). */
  staleCount: number
}

function decideOne(run: Deciding, i: number): void {
  const { ctx, p, results, outcomes, drops, words, lipOutcomes } = run
  const r = results[i] as ResultInfo
  const outcome = outcomes[i] as Outcome
  // Replay: a stub the context refuses for a protection (the same test `ctx.replace` makes
  // first) records nothing there, so its sentences are not built. Newest copies an earlier
  // stub defers to stay stale by the plan at every later call: this skips them cheaply.
  if (!ctx.recordNonChanges) {
    // Such a newest copy is refused either way: as a stub by `ctx.replace`, and as a drop because
    // its group then holds a newest copy (the result is a visible part of it), which refuses the
    // exclusion. So this comes before working out whether the group may be dropped, most of a long
    // replay's cost here (78% of the drops met in the bench's 5,000 calls).
    if (ctx.view.isNewestCopy(r.ref)) return
    if (outcome.kind === 'drop' && drops.has(r.group)) {
      // A drop of its whole group: only its first result excludes it, and an exclusion the
      // context refuses (the first tests `ctx.exclude` makes) records nothing here either.
      // Late in a replay these are mostly groups holding a newer copy an earlier stub names.
      if (drops.get(r.group) !== i || excludeRefused(ctx, r.group)) return
    } else if (ctx.protectionOf(r.group, r.ref) !== null) return
  }
  // LIP's outcome only words the decision (its `fixed` note), and a replay keeps no decision's
  // words: it reads which steps changed what. So a replay never makes the faithful twin plan, a
  // second plan index kept up to date with every result it stubs (half a fired call's work).
  const lip = p.faithful || !ctx.recordNonChanges ? undefined : lipOutcomes()[i]
  const act = actFor(words, results, i, outcome, lip, p)
  if (
    outcome.kind !== 'already' &&
    outcome.kind !== 'newest' &&
    outcome.kind !== 'single' &&
    outcome.kind !== 'no_identity'
  )
    run.staleCount++
  switch (act.kind) {
    case 'none':
      return
    case 'skip':
      return skipWith(ctx, r.group, act.reason, act.detail, r.ref, act.fixed)
    case 'stub': {
      if (act.dropDetail !== undefined && drops.has(r.group)) {
        if (drops.get(r.group) === i)
          ctx.exclude(r.group, act.reason, act.dropDetail, act.dropOptions)
        return
      }
      const ok = ctx.replace(r.ref, act.replacement, 'stub', act.reason, act.detail, act.options)
      const refused = ctx.decisions[ctx.decisions.length - 1]
      if (
        !ok &&
        ctx.recordNonChanges &&
        !p.faithful &&
        !act.options.fixed &&
        refused?.reason === 'no_savings' &&
        lipOutcomes()[i]?.kind === 'stub'
      )
        annotateLast(
          ctx,
          'LIP would have applied the stub anyway: it only checks min_tool_output_tokens_to_compact',
        )
      return
    }
  }
}

/** Would `ctx.exclude(group)` be refused (some of its tests: the rest are left to it)? */
function excludeRefused(ctx: StrategyContext, group: number): boolean {
  return (
    ctx.view.isExcluded(group) ||
    ctx.protectionOf(group) !== null ||
    ctx.view.holdsNewestCopy(group)
  )
}

/** The same params in faithful mode, one object per params object (so memoised verdicts hit). */
const twins = new WeakMap<object, SupersedeStaleResultsParams>()
function faithfulTwin(p: SupersedeStaleResultsParams): SupersedeStaleResultsParams {
  let twin = twins.get(p)
  if (!twin) {
    twin = withFields(p, { faithful: true })
    twins.set(p, twin)
  }
  return twin
}
