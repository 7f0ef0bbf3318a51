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
import { collectResults, lipEstimate, type ResultInfo } from './supersede-stale-results/collect.ts'
import { droppableGroups } from './supersede-stale-results/droppable.ts'
import { resourceLabel } from './supersede-stale-results/identity.ts'
import { annotateLast, lipDifference, skipWith } from './supersede-stale-results/notes.ts'
import type { Outcome, StaleCause } from './supersede-stale-results/plan.ts'
import { planResults } from './supersede-stale-results/replan.ts'
import { redactText } from './supersede-stale-results/redact.ts'
import {
  LIP_STUB_TEMPLATE,
  PLACEHOLDERS,
  literalLength,
  renderStub,
  stubPart,
  stubMatcher,
  unknownPlaceholders,
} from './supersede-stale-results/stub.ts'

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

export const supersedeStaleResultsStrategy = defineStrategy({
  id: 'supersede-stale-results',
  label: 'Supersede stale tool results',
  source: 'llm-interactive-proxy',
  description:
    'Keys every tool result by the resource its call touched (file path + read range, command line, search pattern + path) and replaces results that a newer result for the same resource supersedes with "[COMPACTED] Previous output for <resource> (<N> bytes) was removed because a newer result for this resource exists later in the conversation." Defaults are LIP\'s: keep the last result per resource, skip outputs under 250 tokens (len/4), safe category lists (reads, views, searches, listings, tests compactable; writes and commands never). Fixed mode (default) keys commands by the whole command line and searches by pattern + path, normalises paths fully (./, .., cwd, Windows case), treats view_file ranges as distinct, lets a later full read supersede partial reads, recognises Claude Code/MCP tool names, reads `list_directory` as `list_dir`, reads shell commands that only read (`cat`, `sed -n a,bp`, `nl`, `head`/`tail`, `rg`/`grep`, `ls`/`find`/`tree`, `git show/diff/log`, in pipelines and `cd dir &&` chains) as the file, search or listing they read, lets a later read that covers an earlier range supersede it, marks reads of a file that a later edit changed as superseded by the write (writesMakeStale), and honours preserveLastN, maxStubsPerResource and stubTemplate, which LIP declares but ignores; the pipeline trigger decides when it runs. Faithful mode reproduces LIP, including its own tokenThreshold gate on Σ len(content)/4.',
  schema: supersedeStaleResultsSchema,
  run(ctx: StrategyContext, p: SupersedeStaleResultsParams) {
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
    const redact = (s: string) => (p.redactResourceIdentifiers ? redactText(s) : s)
    const planned = planResults(ctx.view, results, p)
    const outcomes: readonly Outcome[] = planned.out
    const stale = planned.stale()
    // Replay records only changes: when nothing is stale there is nothing more to do, and the
    // faithful twin plan (only used to word decisions) is not needed.
    if (!ctx.recordNonChanges && stale.length === 0) return
    // The faithful twin plan only words decisions: made when the first sentence needs it (in a
    // replay most calls find only stale results they skip before wording anything).
    let lip: readonly Outcome[] | undefined
    const lipOutcomes = (): readonly Outcome[] =>
      (lip ??= p.faithful ? outcomes : planResults(ctx.view, results, faithfulTwin(p)).out)
    const messageIdOf = (i: number) => results[i]?.messageId ?? '?'
    const drops = droppableGroups(ctx, results, outcomes, stale)

    let staleCount = 0
    // Replay records only changes: only the results to stub or drop need sentences.
    for (const i of ctx.recordNonChanges ? results.keys() : stale) decideOne(i)
    function decideOne(i: number): void {
      const r = results[i] as ResultInfo
      const outcome = outcomes[i] as Outcome
      // Replay: a stub the context refuses for a protection (the same test `ctx.replace` makes
      // first) records nothing there, so its sentences are not built. Newest copies an earlier
      // stub defers to stay stale by the plan at every later call: this skips them cheaply.
      if (
        !ctx.recordNonChanges &&
        (outcome.kind === 'stub' || !drops.has(r.group)) &&
        (ctx.protectionOf(r.group, r.ref) !== null || ctx.view.isNewestCopy(r.ref))
      )
        return
      const occ = p.faithful ? r.faithful : r.fixed
      const label = occ.identity ? redact(resourceLabel(occ.identity, p.faithful)) : ''
      const what = `\`${r.tool}\` output${label ? ` for ${label}` : ''}`
      const fixed = p.faithful
        ? undefined
        : lipDifference(outcome, lipOutcomes()[i] as Outcome, r.faithful, messageIdOf, redact)
      const measure =
        r.hasAttachments && !p.faithful
          ? `${occ.measure} tokens (engine count: it has attachments)`
          : `${occ.measure} tokens by len//4`
      if (
        outcome.kind !== 'already' &&
        outcome.kind !== 'newest' &&
        outcome.kind !== 'single' &&
        outcome.kind !== 'no_identity'
      )
        staleCount++
      switch (outcome.kind) {
        case 'stub':
        case 'drop': {
          const bytes = p.faithful ? r.bytes.faithful : r.bytes.fixed
          const base = `${what} (${bytes} bytes, ${measure})`
          const byWrite = outcome.cause === 'write'
          const stale = byWrite
            ? writeSentence(r, results[outcome.newer] as ResultInfo)
            : `${CAUSE_WORDS[outcome.cause]} is in message ${messageIdOf(outcome.newer)}`
          const reason = byWrite ? 'superseded_by_write' : 'superseded'
          if (outcome.kind === 'drop' && drops.has(r.group)) {
            if (drops.get(r.group) === i)
              ctx.exclude(
                r.group,
                reason,
                `Dropped the call and ${base}: ${stale}, and the ${p.maxStubsPerResource} newer stub(s) allowed per resource (maxStubsPerResource) already say so — LIP decision \`applied\``,
                { ...(fixed ? { fixed } : {}) },
              )
            return
          }
          const stub = renderStub(byWrite ? WRITE_STUB_TEMPLATE : template, {
            resource: label,
            bytes: String(bytes),
            size: String(bytes),
            tool: r.tool,
            tokens: String(occ.measure),
            category: occ.category,
          })
          const replacement = stubPart(r.part, stub)
          const note =
            outcome.kind === 'drop' ? ' (kept as a stub: its group holds other content)' : ''
          const ok = ctx.replace(
            r.ref,
            replacement,
            'stub',
            reason,
            `Stubbed ${base}: ${stale}${note}${byWrite ? '' : ' — LIP decision `applied`'}`,
            {
              // A write is not a copy of the read: nothing newer has to stay intact for it.
              ...(byWrite ? {} : { newer: (results[outcome.newer] as ResultInfo).ref }),
              ...(fixed ? { fixed } : {}),
              ...(p.faithful ? { allowGrowth: true } : {}),
            },
          )
          const refused = ctx.decisions[ctx.decisions.length - 1]
          if (
            !ok &&
            !p.faithful &&
            !fixed &&
            refused?.reason === 'no_savings' &&
            lipOutcomes()[i]?.kind === 'stub'
          )
            annotateLast(
              ctx,
              'LIP would have applied the stub anyway: it only checks min_tool_output_tokens_to_compact',
            )
          return
        }
        case 'denied':
          return skipWith(
            ctx,
            r.group,
            'denied_by_policy',
            `Kept ${what}: ${outcome.why}, though a newer result is in message ${messageIdOf(outcome.newer)} — LIP decision \`denied_by_policy\``,
            r.ref,
            fixed,
          )
        case 'below_min':
          return skipWith(
            ctx,
            r.group,
            'skipped_below_min_tokens',
            `Kept ${what}: ${measure} is below minToolOutputTokens ${p.minToolOutputTokens}, though a newer result is in message ${messageIdOf(outcome.newer)} — LIP decision \`skipped_below_min_tokens\``,
            r.ref,
            fixed,
          )
        case 'keep_recent':
          return skipWith(
            ctx,
            r.group,
            'keep_recent',
            `Kept ${what}: it is the ${ordinal(outcome.rank)} newest result for this resource and preserveLastN is ${p.preserveLastN} (LIP keeps only the last)`,
            r.ref,
            fixed,
          )
        case 'already':
          return skipWith(
            ctx,
            r.group,
            'already_compacted',
            `Left ${what} as is: it is already compacted (a stub, or changed by an earlier step) — LIP skips \`_compacted\` results`,
            r.ref,
            undefined,
          )
        case 'newest':
        case 'single':
        case 'no_identity':
          if (fixed)
            skipWith(
              ctx,
              r.group,
              'keep_recent',
              outcome.kind === 'no_identity'
                ? `Kept ${what}: no resource identity in its arguments`
                : `Kept ${what}: it is the newest result for this resource`,
              r.ref,
              fixed,
            )
          return
      }
    }
    if (staleCount === 0 && ctx.recordNonChanges) {
      const identified = results.filter((r) => (p.faithful ? r.faithful : r.fixed).identity).length
      ctx.skip(
        last.index,
        'keep_recent',
        `Nothing compacted: no stale results — each of the ${identified} identified tool results is the newest for its resource — LIP decision \`no_stale_results\``,
      )
    }
  },
})

const CAUSE_WORDS: Readonly<Record<Exclude<StaleCause, 'write'>, string>> = {
  newer: 'a newer result for this resource',
  full_read: 'a later full read of the file',
  covering_read: 'a later read of the file that covers these lines',
}

/** Stub for a read made stale by a write (recognised on a second run by its `[COMPACTED]` mark). */
const WRITE_STUB_TEMPLATE =
  '[COMPACTED] Previous output for {resource} ({bytes} bytes) was removed because the file was modified later in the conversation.'

/** "the file was modified at message m42 (`apply_patch` of src/x.ts)". */
function writeSentence(read: ResultInfo, write: ResultInfo): string {
  const written = new Set(write.fixed.identity?.writes ?? [])
  const files = (read.fixed.identity?.reads ?? []).filter((f) => written.has(f))
  return `the file ${files.join(', ')} was modified at message ${write.callMessageId} (\`${write.tool}\`)`
}

const ordinal = (n: number): string => (n === 2 ? '2nd' : n === 3 ? '3rd' : `${n}th`)

/** The same params in faithful mode, one object per params object (so memoised verdicts hit). */
const twins = new WeakMap<object, SupersedeStaleResultsParams>()
function faithfulTwin(p: SupersedeStaleResultsParams): SupersedeStaleResultsParams {
  let twin = twins.get(p)
  if (!twin) {
    twin = { ...p, faithful: true }
    twins.set(p, twin)
  }
  return twin
}
