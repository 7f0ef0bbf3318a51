import type { Group } from '../groups.ts'
import type { Conversation, Message, Part } from '../model.ts'
import type { PartRef, Pairing } from '../pairing.ts'
import type { TextCounter } from '../tokens/types.ts'
import type { Summarizer } from '../summarize/types.ts'
import type { Protections } from './protect.ts'
import type { ChangeOptions, SummaryInsert, UsableWindow } from './context-types.ts'
import { flatPart } from './prepared.ts'
import { written, type Sentence } from './sentence.ts'
import type { Decision, ProtectionKind, ReasonCode } from './types.ts'
import type { WorkingView } from './view.ts'
import { exclusionRecord, protectedRecord, recordBase } from './context-records.ts'
import { insertSummary } from './context-insert.ts'

/**
 * What a strategy sees and how it acts. Reading is free; every change goes through `exclude`,
 * `replace` or `insert`, which check protections (a refused attempt is recorded as `protected`),
 * compute tokens before/after, and log a decision with the strategy's reason and sentence.
 */
export class StrategyContext {
  /**
   * This step's decisions, in order. A step played back from its record (step-records.ts) gets
   * the record's own list: nothing is appended after a playback (see `playedBack`).
   */
  decisions: Decision[] = []
  readonly view: WorkingView
  readonly protections: Protections
  /** Id of the running strategy (recorded on every decision). */
  readonly strategy: string
  /** Pipeline step index (−1 for the fallback). */
  readonly step: number
  readonly window: UsableWindow
  /** Injected summariser, when the run has one (summarising strategies fail open without). */
  readonly summarizer: Summarizer | undefined
  private summarySeq = 0
  /**
   * When false, deliberate non-changes (skips, refused attempts) are not recorded: replay only
   * reports what changed, and thousands of "kept because…" records per call would dominate it.
   */
  recordNonChanges = true

  constructor(
    view: WorkingView,
    protections: Protections,
    strategy: string,
    step: number,
    window: UsableWindow,
    summarizer: Summarizer | undefined,
  ) {
    this.view = view
    this.protections = protections
    this.strategy = strategy
    this.step = step
    this.window = window
    this.summarizer = summarizer
  }

  get conversation(): Conversation {
    return this.view.prepared.conversation
  }
  get pairing(): Pairing {
    return this.view.prepared.grouping.pairing
  }
  get counter(): TextCounter {
    return this.view.prepared.counter
  }
  /** Visible original groups, in order (a shared array: copy it to keep it). */
  groups(): readonly Group[] {
    return this.view.visibleGroups()
  }
  /** The current call's context as the provider would count it (what budgets compare with). */
  totalTokens(): number {
    return this.view.contextTokens
  }
  /** Real user turns visible so far. */
  turns(): number {
    return this.view.lastTurn
  }
  /** Index into `pairing.calls` of the call at `ref`, or -1. */
  callIndexAt(ref: PartRef): number {
    const index = this.view.parts
    const k = flatPart(index, ref.message, ref.part)
    return k >= 0 ? (index.callAt[k] as number) : -1
  }
  resultIndexAt(ref: PartRef): number {
    const index = this.view.parts
    const k = flatPart(index, ref.message, ref.part)
    return k >= 0 ? (index.resultAt[k] as number) : -1
  }
  /** Is the message visible at this point of the run (replay hides the future)? */
  visible(message: number): boolean {
    return message < this.view.limit
  }

  protectionOf(group: number, ref?: PartRef): ProtectionKind | null {
    return ref ? this.protections.part(group, ref) : this.protections.group(group)
  }

  /** Is the part protected? (The helpers that take an `Out`, strategies/playback.ts, take this.) */
  isProtected(group: number, ref: PartRef): boolean {
    return this.protectionOf(group, ref) !== null
  }

  /**
   * The step was played back: its decisions are the recorded ones. The recorded list itself, not
   * a copy (it held ~10,000 decisions per re-plan): it is only read from here on (the pipeline
   * joins the steps' lists into a new array, or hands out the only one, read-only).
   */
  playedBack(recorded: readonly Decision[]): void {
    if (this.decisions.length === 0) this.decisions = recorded as Decision[]
    else for (let i = 0; i < recorded.length; i++) this.decisions.push(recorded[i] as Decision)
  }

  /** The id of a group, as decisions name it. */
  groupIdOf(group: number): string {
    return this.view.prepared.grouping.groups[group]?.id ?? `g#${group}`
  }

  /** Exclude a whole group. Returns false when protected (the attempt is recorded). */
  exclude(
    group: number,
    reason: ReasonCode,
    sentence: Sentence,
    options: ChangeOptions = {},
  ): boolean {
    if (this.view.isExcluded(group)) return false
    const before = this.view.groupTokens(group)
    const last =
      this.view.includedGroups <= 1 &&
      this.view.summaries().length === 0 &&
      this.view.messagesOf(group).length > 0
    const protection =
      this.protections.group(group) ??
      (this.view.holdsNewestCopy(group) ? 'newest_copy' : last ? 'minimum_retained' : null)
    if (protection) {
      if (this.recordNonChanges)
        this.decisions.push(
          protectedRecord(this, group, 'exclude', protection, sentence, REFUSED, before),
        )
      return false
    }
    this.view.exclude(group)
    this.decisions.push(exclusionRecord(this, group, reason, sentence, before, options.fixed))
    return true
  }

  /**
   * Exclude a group even if protected. Only the strict final fallback uses this (MAF drops the
   * system prompt when nothing else is left); the decision says so.
   */
  excludeUnprotected(group: number, reason: ReasonCode, sentence: Sentence): boolean {
    if (this.view.isExcluded(group)) return false
    const before = this.view.groupTokens(group)
    this.view.exclude(group)
    this.decisions.push({
      kind: 'exclude',
      ...recordBase(this, group, reason, sentence, before, 0),
    })
    return true
  }

  /**
   * Replace one part (a stub or a trim; `null` removes it). Refused when protected, and skipped
   * as `no_savings` when the replacement would not be smaller. `known`: the replacement's price
   * when the caller has it already (what `view.price` answers for the message at `ref`; −1: price
   * it here) — a strategy pricing from a table per prepared conversation saves the memo's lookup.
   */
  replace(
    ref: PartRef,
    replacement: Part | null,
    kind: 'stub' | 'trim',
    reason: ReasonCode,
    sentence: Sentence,
    options: ChangeOptions = {},
    known = -1,
  ): boolean {
    const group = this.view.prepared.grouping.groupOfMessage[ref.message] as number
    const message = this.conversation.messages[ref.message] as Message
    const before = this.view.partTokens(ref)
    const protection =
      this.protections.part(group, ref) ?? (this.view.isNewestCopy(ref) ? 'newest_copy' : null)
    if (protection) {
      if (this.recordNonChanges)
        this.decisions.push(
          protectedRecord(this, group, kind, protection, sentence, REFUSED, before, ref),
        )
      return false
    }
    if (options.newer) {
      const newer = options.newer
      const newerGroup = this.view.prepared.grouping.groupOfMessage[newer.message] as number
      if (this.view.isCompacted(newer) || this.view.isExcluded(newerGroup)) {
        // The copy this one defers to is itself compacted or gone: this is now the best copy.
        this.skip(
          group,
          'keep_recent',
          () =>
            `${written(sentence)} — not applied: the newer copy it defers to (message ${this.conversation.messages[newer.message]?.id}) was itself changed or removed by an earlier step`,
          ref,
        )
        return false
      }
    }
    const after =
      known >= 0
        ? known
        : replacement
          ? this.view.price(replacement, message.role, message.model)
          : 0
    if (after >= before && !options.allowGrowth) {
      this.skip(
        group,
        'no_savings',
        () =>
          `${written(sentence)} — not applied: the replacement (${after} tokens) is not smaller than the original (${before})`,
        ref,
      )
      return false
    }
    this.view.replace(ref, replacement, after, this.strategy, options.newer)
    if (options.newer) this.view.markNewestCopy(options.newer, ref)
    if (!options.fields && !options.fixed && !options.newer) {
      // The common case, built as one literal (same keys, same order as the general form below):
      // thousands of stubs per round make the spread copies a visible share of a re-plan.
      this.decisions.push({
        kind,
        messageId: message.id,
        target: ref,
        replacement,
        strategy: this.strategy,
        step: this.step,
        reason,
        sentence,
        groupId: this.groupIdOf(group),
        tokensBefore: before,
        tokensAfter: after,
      })
      return true
    }
    const { fields, fixed, newer } = options
    const groupId = this.groupIdOf(group)
    const { strategy, step } = this
    // Literals with the keys of the general form below, in its order: a literal with spreads is
    // built as a dictionary-mode object several times the size, and every decision outlives the
    // round (thousands of field trims and supersession stubs per re-plan).
    if (!fixed && newer) {
      this.decisions.push(
        fields
          ? {
              kind,
              messageId: message.id,
              target: ref,
              replacement,
              fields,
              strategy,
              step,
              reason,
              sentence,
              groupId,
              tokensBefore: before,
              tokensAfter: after,
              newer,
            }
          : {
              kind,
              messageId: message.id,
              target: ref,
              replacement,
              strategy,
              step,
              reason,
              sentence,
              groupId,
              tokensBefore: before,
              tokensAfter: after,
              newer,
            },
      )
      return true
    }
    this.decisions.push({
      kind,
      messageId: message.id,
      target: ref,
      replacement,
      ...(fields ? { fields } : {}),
      ...recordBase(this, group, reason, sentence, before, after, fixed, newer),
    })
    return true
  }

  /** Insert a summary and exclude the groups it covers, atomically (see context-insert.ts). */
  insert(
    summary: SummaryInsert,
    reason: ReasonCode,
    sentence: Sentence,
    options: ChangeOptions = {},
  ): boolean {
    return insertSummary(this, summary, reason, sentence, options)
  }

  /**
   * An id no message or earlier summary uses (hard case 31: generated ids must not collide with
   * ids already in the conversation, e.g. a transcript that was compacted by us before).
   */
  freshSummaryId(stem: string): string {
    let id = stem
    while (this.view.prepared.messageIds.has(id) || this.view.hasSummaryId(id))
      id = `${stem}-${++this.summarySeq}`
    return id
  }

  /** Record a deliberate non-change ("why was this kept?"). */
  skip(
    group: number,
    reason: ReasonCode,
    sentence: Sentence,
    ref?: PartRef,
    options: ChangeOptions = {},
  ): void {
    if (!this.recordNonChanges) return
    const t = ref ? this.view.partTokens(ref) : this.view.groupTokens(group)
    if (!options.fixed) {
      // Literals with the same keys in the same order as the general form: skips are most of
      // the decisions of a re-plan, and the spread copies were a visible share of it.
      this.decisions.push(
        ref
          ? {
              kind: 'skip',
              target: ref,
              strategy: this.strategy,
              step: this.step,
              reason,
              sentence,
              groupId: this.groupIdOf(group),
              tokensBefore: t,
              tokensAfter: t,
            }
          : {
              kind: 'skip',
              strategy: this.strategy,
              step: this.step,
              reason,
              sentence,
              groupId: this.groupIdOf(group),
              tokensBefore: t,
              tokensAfter: t,
            },
      )
      return
    }
    this.decisions.push({
      kind: 'skip',
      ...(ref ? { target: ref } : {}),
      ...recordBase(this, group, reason, sentence, t, t, options.fixed),
    })
  }

  /** Record that a group was kept by a protection the strategy applies itself (minimum retained). */
  protect(
    group: number,
    protection: ProtectionKind,
    attempted: 'exclude' | 'stub' | 'trim' | 'insert',
    sentence: Sentence,
  ): void {
    const t = this.view.groupTokens(group)
    if (this.recordNonChanges)
      this.decisions.push(protectedRecord(this, group, attempted, protection, sentence, KEPT, t))
  }
}

const REFUSED = ' — refused: '
const KEPT = ' — kept: '

export type { ChangeOptions, SummaryInsert, UsableWindow } from './context-types.ts'
export { describeProtection } from './context-types.ts'
