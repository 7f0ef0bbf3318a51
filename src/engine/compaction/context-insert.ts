import type { Message, Part } from '../model.ts'
import type { StrategyContext } from './context.ts'
import type { ChangeOptions, SummaryInsert } from './context-types.ts'
import { exclusionRecord, protectedRecord, recordBase } from './context-records.ts'
import { written, type Sentence } from './sentence.ts'
import type { ReasonCode } from './types.ts'
import type { InsertedSummary, WorkingView } from './view.ts'

/** The empty text a summary message's framing is priced with (one object: its price is memoised). */
const EMPTY_TEXT: Part = { kind: 'text', text: '' }

/**
 * `summary-<step>-<first covered group id>`, one string per (prepared conversation, step, group):
 * a re-plan that collapses thousands of groups gets the same id strings back, their hashes
 * already computed for the id checks, instead of building and hashing each one again.
 */
const summaryStems = new WeakMap<object, Map<number, (string | undefined)[]>>()

function summaryStem(
  prepared: WorkingView['prepared'],
  step: number,
  first: number | undefined,
): string {
  const { groups } = prepared.grouping
  const group = first === undefined ? undefined : groups[first]
  if (first === undefined) return `summary-${step}-none`
  if (!group) return `summary-${step}-g#${first}`
  let bySteps = summaryStems.get(prepared)
  if (!bySteps) {
    bySteps = new Map()
    summaryStems.set(prepared, bySteps)
  }
  let stems = bySteps.get(step)
  if (!stems) {
    stems = new Array<string | undefined>(groups.length)
    bySteps.set(step, stems)
  }
  return (stems[first] ??= `summary-${step}-${group.id}`)
}

/**
 * Insert a summary and exclude the groups it covers, atomically ({@link StrategyContext.insert}):
 * refused when a covered group is protected, skipped as `no_savings` when the summary is not
 * smaller than the original groups or the call's context would not shrink.
 */
export function insertSummary(
  ctx: StrategyContext,
  summary: SummaryInsert,
  reason: ReasonCode,
  sentence: Sentence,
  options: ChangeOptions,
): boolean {
  const { view } = ctx
  for (const g of summary.covers) {
    const protection = ctx.protections.group(g) ?? (view.holdsNewestCopy(g) ? 'newest_copy' : null)
    if (protection) {
      if (ctx.recordNonChanges) {
        const t = view.groupTokens(g)
        const how = ' — refused: it would replace '
        ctx.decisions.push(protectedRecord(ctx, g, 'insert', protection, sentence, how, t))
      }
      return false
    }
  }
  const covers = summary.covers.map((g) => ctx.groupIdOf(g))
  const message: Message = {
    id: ctx.freshSummaryId(summaryStem(view.prepared, ctx.step, summary.covers[0])),
    role: summary.role,
    parts: summary.parts,
    summaryOf: { strategy: ctx.strategy, groups: covers },
  }
  // Plain loops: thousands of inserts per re-plan (a collapse per tool group), and each reduce
  // allocated a closure.
  const { groups } = view.prepared.grouping
  let tokens = view.price(EMPTY_TEXT, summary.role) + view.prepared.framing.perMessage
  for (const p of summary.parts) tokens += view.price(p, summary.role)
  let before = 0
  // Earlier summaries it absorbs are not new material: the new summary must be smaller than the
  // original groups it replaces. Otherwise it only loses detail — and a run on the projection
  // would summarise the summary again (not idempotent).
  let material = 0
  for (const g of summary.covers) {
    const t = view.groupTokens(g)
    before += t
    if (groups[g]?.kind !== 'summary') material += t
  }
  if (tokens >= material && !options.allowGrowth) {
    ctx.skip(
      summary.anchor,
      'no_savings',
      () =>
        `${written(sentence)} — not applied: the summary (${tokens} tokens) is not smaller than the original groups it would replace (${material} tokens)`,
    )
    return false
  }
  // Measured on the call's context too: what it covers may be partly outside it already
  // (earlier-turn thinking the provider does not count), and then a summary can cost more than
  // it takes away. Applied on a checkpoint, taken back when the context would not shrink.
  const contextBefore = view.contextTokens
  const checkpoint = view.checkpoint()
  const decisionsBefore = ctx.decisions.length
  // One sentence for every covered group (a summary can cover thousands).
  const replaced = () => `${written(sentence)} (replaced by summary ${message.id})`
  for (const g of summary.covers) {
    const t = view.groupTokens(g)
    view.exclude(g)
    ctx.decisions.push(exclusionRecord(ctx, g, reason, replaced, t, options.fixed))
  }
  if (summary.absorbs) for (const id of summary.absorbs) view.retract(id)
  const inserted: InsertedSummary = {
    message,
    tokens,
    anchor: summary.anchor,
    position: summary.position,
    covers: summary.covers,
  }
  view.insert(inserted)
  const contextAfter = view.contextTokens
  if (contextAfter >= contextBefore && !options.allowGrowth) {
    view.rollback(checkpoint)
    ctx.decisions.length = decisionsBefore
    ctx.skip(
      summary.anchor,
      'no_savings',
      () =>
        `${written(sentence)} — not applied: the call's context would not shrink (${contextBefore} tokens before, ${contextAfter} with the summary: part of what it covers is not counted by the provider)`,
    )
    return false
  }
  // A literal in the general form's key order unless `fixed` is set (see `replace`).
  ctx.decisions.push(
    options.fixed
      ? {
          kind: 'insert',
          summary: message,
          covers,
          position: summary.position,
          ...recordBase(ctx, summary.anchor, reason, sentence, before, tokens, options.fixed),
        }
      : {
          kind: 'insert',
          summary: message,
          covers,
          position: summary.position,
          strategy: ctx.strategy,
          step: ctx.step,
          reason,
          sentence,
          groupId: ctx.groupIdOf(summary.anchor),
          tokensBefore: before,
          tokensAfter: tokens,
        },
  )
  return true
}
