/**
 * What the strategy does with one result and the sentences it records. They are made once per
 * (collection, params value) and kept in shared.ts: the plan is a pure function of both, so a
 * re-plan over the same collection (every config edit, in the app and in the bench) words the
 * very same outcomes, and building thousands of sentences again was the largest part of the step.
 * The view is not read here: whether the context accepts a change is still decided at every run.
 */
import type { ChangeOptions } from '../../compaction/context-types.ts'
import type { Sentence } from '../../compaction/sentence.ts'
import type { ReasonCode } from '../../compaction/types.ts'
import type { ToolResultPart } from '../../model.ts'
import type { ResultInfo } from './collect.ts'
import { resourceLabel } from './identity.ts'
import { lipDifference } from './notes.ts'
import type { Outcome, StaleCause } from './plan.ts'
import { redactText } from './redact.ts'
import type { SharedWords } from './shared.ts'
import { LIP_STUB_TEMPLATE, renderStub, stubPart } from './stub.ts'

/** The params the words read (the strategy's parsed params). */
export interface WordParams {
  readonly faithful: boolean
  readonly stubTemplate: string
  readonly redactResourceIdentifiers: boolean
  readonly maxStubsPerResource: number | null
  readonly minToolOutputTokens: number
  readonly preserveLastN: number
}

/** What to do with a result, with its sentences. */
export type Act =
  | {
      readonly kind: 'stub'
      readonly reason: ReasonCode
      readonly replacement: ToolResultPart
      readonly detail: Sentence
      readonly options: ChangeOptions
      /** Drops only: the sentence and options when its whole group is dropped. */
      readonly dropDetail: Sentence | undefined
      readonly dropOptions: ChangeOptions
    }
  | {
      readonly kind: 'skip'
      readonly reason: ReasonCode
      readonly detail: Sentence
      readonly fixed: string | undefined
    }
  | { readonly kind: 'none' }

/**
 * The act for `results[i]` under `outcome` (and LIP's `lip`, fixed mode only), kept in `acts`:
 * the caller hands the acts of this very collection and params value (shared.ts), under which
 * the outcomes are always the same.
 */
export function actFor(
  words: SharedWords,
  results: readonly ResultInfo[],
  i: number,
  outcome: Outcome,
  lip: Outcome | undefined,
  p: WordParams,
): Act {
  let act = words.acts[i]
  if (!act) {
    const lent = words.donor?.acts[i]
    const made = words.donor?.made
    if (lent && made && sameAct(made, i, outcome, lip, p)) act = lent
    else {
      words.wording ??= wordingOf(results, p)
      act = makeAct(results, results[i] as ResultInfo, outcome, lip, p, words.wording)
    }
    words.acts[i] = act
  }
  return act
}

/** The params and outcomes a set of acts was made from. */
export interface ActsMade {
  readonly p: WordParams
  readonly outcomes: readonly Outcome[]
  /** LIP's outcomes (fixed mode), when they were asked for. */
  readonly lip: readonly Outcome[] | undefined
}

/**
 * Would the act made under `made` for result `i` be made the same now? An edit of the step's own
 * params usually changes few outcomes, and only some acts read the edited value: the rest keep
 * their sentences instead of being worded again.
 */
function sameAct(
  made: ActsMade,
  i: number,
  outcome: Outcome,
  lip: Outcome | undefined,
  p: WordParams,
): boolean {
  const q = made.p
  if (q.faithful !== p.faithful || q.redactResourceIdentifiers !== p.redactResourceIdentifiers)
    return false
  if (!sameOutcome(made.outcomes[i], outcome) || !sameOutcome(made.lip?.[i], lip)) return false
  switch (outcome.kind) {
    case 'stub':
      return p.faithful || q.stubTemplate === p.stubTemplate
    case 'drop':
      return (
        (p.faithful || q.stubTemplate === p.stubTemplate) &&
        q.maxStubsPerResource === p.maxStubsPerResource
      )
    case 'below_min':
      return q.minToolOutputTokens === p.minToolOutputTokens
    case 'keep_recent':
      return q.preserveLastN === p.preserveLastN
    case 'denied':
    case 'already':
    case 'newest':
    case 'single':
    case 'no_identity':
      return true
  }
}

/** Every field of an outcome, whatever its kind (absent ones are undefined on both sides). */
interface AnyOutcome {
  readonly kind: string
  readonly newer?: number
  readonly cause?: string
  readonly why?: string
  readonly rank?: number
}
function sameOutcome(a: Outcome | undefined, b: Outcome | undefined): boolean {
  if (a === b) return true
  if (!a || !b) return false
  const x: AnyOutcome = a
  const y: AnyOutcome = b
  return (
    x.kind === y.kind &&
    x.newer === y.newer &&
    x.cause === y.cause &&
    x.why === y.why &&
    x.rank === y.rank
  )
}

/**
 * The lookups a sentence takes as functions, made once per collection and params object rather
 * than as closures per result: an edit of the step's own params words every result again.
 */
export interface Wording {
  readonly redact: (s: string) => string
  readonly messageIdOf: (i: number) => string
}
function wordingOf(results: readonly ResultInfo[], p: WordParams): Wording {
  return {
    redact: p.redactResourceIdentifiers ? redactOne : same,
    messageIdOf: (i) => results[i]?.messageId ?? '?',
  }
}
const redactOne = (s: string): string => redactText(s)
const same = (s: string): string => s

function skipAct(reason: ReasonCode, detail: Sentence, fixed: string | undefined): Act {
  return { kind: 'skip', reason, detail, fixed }
}

const NONE: Act = { kind: 'none' }
const NO_OPTIONS: ChangeOptions = {}

/** What a result's sentences quote, gathered once per act (one object, not a closure each). */
interface Said {
  readonly r: ResultInfo
  readonly results: readonly ResultInfo[]
  readonly p: WordParams
  readonly wording: Wording
}

/** The resource as the sentences name it ('' when the result has no identity). */
function labelOf({ r, p, wording }: Said): string {
  const occ = p.faithful ? r.faithful : r.fixed
  return occ.identity ? wording.redact(resourceLabel(occ.identity, p.faithful)) : ''
}

/** "`tool` output for <label>". */
const whatOf = (r: ResultInfo, label: string): string =>
  `\`${r.tool}\` output${label ? ` for ${label}` : ''}`

/** "N tokens by len//4" (or the engine's count when the result has attachments). */
function measureOf({ r, p }: Said): string {
  const occ = p.faithful ? r.faithful : r.fixed
  return r.hasAttachments && !p.faithful
    ? `${occ.measure} tokens (engine count: it has attachments)`
    : `${occ.measure} tokens by len//4`
}

// The sentences, written when read (sentence.ts): one function per sentence, reading the act's
// `Said`, rather than the five helper closures `makeAct` made per act before (the acts of a
// collection are made again for every params value).

function stubbed(s: Said, label: string, bytes: number, o: StaleOutcome, note: string): Sentence {
  return () =>
    `Stubbed ${baseOf(s, label, bytes)}: ${staleOf(s, o)}${note}${o.cause === 'write' ? '' : ' — LIP decision `applied`'}`
}

function dropped(s: Said, label: string, bytes: number, o: StaleOutcome): Sentence {
  return () =>
    `Dropped the call and ${baseOf(s, label, bytes)}: ${staleOf(s, o)}, and the ${s.p.maxStubsPerResource} newer stub(s) allowed per resource (maxStubsPerResource) already say so — LIP decision \`applied\``
}

function kept(s: Said, outcome: Outcome): Sentence {
  const newerId = s.wording.messageIdOf
  switch (outcome.kind) {
    case 'denied':
      return () =>
        `Kept ${whatOf(s.r, labelOf(s))}: ${outcome.why}, though a newer result is in message ${newerId(outcome.newer)} — LIP decision \`denied_by_policy\``
    case 'below_min':
      return () =>
        `Kept ${whatOf(s.r, labelOf(s))}: ${measureOf(s)} is below minToolOutputTokens ${s.p.minToolOutputTokens}, though a newer result is in message ${newerId(outcome.newer)} — LIP decision \`skipped_below_min_tokens\``
    case 'keep_recent':
      return () =>
        `Kept ${whatOf(s.r, labelOf(s))}: it is the ${ordinal(outcome.rank)} newest result for this resource and preserveLastN is ${s.p.preserveLastN} (LIP keeps only the last)`
    case 'already':
      return () =>
        `Left ${whatOf(s.r, labelOf(s))} as is: it is already compacted (a stub, or changed by an earlier step) — LIP skips \`_compacted\` results`
    case 'no_identity':
      return () => `Kept ${whatOf(s.r, labelOf(s))}: no resource identity in its arguments`
    default:
      return () => `Kept ${whatOf(s.r, labelOf(s))}: it is the newest result for this resource`
  }
}

type StaleOutcome = Extract<Outcome, { kind: 'stub' | 'drop' }>

function baseOf(s: Said, label: string, bytes: number): string {
  return `${whatOf(s.r, label)} (${bytes} bytes, ${measureOf(s)})`
}

function staleOf(s: Said, o: StaleOutcome): string {
  return o.cause === 'write'
    ? writeSentence(s.r, s.results[o.newer] as ResultInfo)
    : `${CAUSE_WORDS[o.cause]} is in message ${s.wording.messageIdOf(o.newer)}`
}

function makeAct(
  results: readonly ResultInfo[],
  r: ResultInfo,
  outcome: Outcome,
  lip: Outcome | undefined,
  p: WordParams,
  wording: Wording,
): Act {
  const { redact, messageIdOf } = wording
  const said: Said = { r, results, p, wording }
  const fixed =
    p.faithful || !lip ? undefined : lipDifference(outcome, lip, r.faithful, messageIdOf, redact)
  switch (outcome.kind) {
    case 'stub':
    case 'drop': {
      const occ = p.faithful ? r.faithful : r.fixed
      // Only a stub's own text needs the label now; its sentence is written when read.
      const label = labelOf(said)
      const bytes = p.faithful ? r.bytes.faithful : r.bytes.fixed
      const byWrite = outcome.cause === 'write'
      const reason = byWrite ? 'superseded_by_write' : 'superseded'
      const template = p.faithful ? LIP_STUB_TEMPLATE : p.stubTemplate
      const stub = renderStub(byWrite ? WRITE_STUB_TEMPLATE : template, {
        resource: label,
        bytes: String(bytes),
        size: String(bytes),
        tool: r.tool,
        tokens: String(occ.measure),
        category: occ.category,
      })
      const note = outcome.kind === 'drop' ? ' (kept as a stub: its group holds other content)' : ''
      return {
        kind: 'stub',
        reason,
        replacement: stubPart(r.part, stub),
        detail: stubbed(said, label, bytes, outcome, note),
        // One literal shape (the context reads these by value, an absent one as undefined): the
        // spread form made a dictionary-mode object per stub.
        options: {
          // A write is not a copy of the read: nothing newer has to stay intact for it.
          newer: byWrite ? undefined : (results[outcome.newer] as ResultInfo).ref,
          fixed,
          allowGrowth: p.faithful ? true : undefined,
        },
        dropDetail: outcome.kind === 'drop' ? dropped(said, label, bytes, outcome) : undefined,
        dropOptions: fixed ? { fixed } : NO_OPTIONS,
      }
    }
    case 'denied':
      return skipAct('denied_by_policy', kept(said, outcome), fixed)
    case 'below_min':
      return skipAct('skipped_below_min_tokens', kept(said, outcome), fixed)
    case 'keep_recent':
      return skipAct('keep_recent', kept(said, outcome), fixed)
    case 'already':
      return skipAct('already_compacted', kept(said, outcome), undefined)
    case 'newest':
    case 'single':
    case 'no_identity':
      if (!fixed) return NONE
      return skipAct('keep_recent', kept(said, outcome), fixed)
  }
}

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
