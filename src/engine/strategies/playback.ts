/**
 * A step's calls on the context (skips and replacements, in order), recorded per prepared
 * conversation and params value, and played back when the step runs again on the same untouched
 * view.
 *
 * What a step like tool-payload-trim or prune-tool-outputs decides is a pure function of the
 * conversation, the params value, the view it starts from and the protections it asks about. A
 * re-plan in the app (a new config object on every edit, the params interned by value:
 * intern-params.ts) on a view nothing has changed yet — the step first in its pipeline, as in the
 * adachsoft and opencode presets — decides exactly what the last run decided: the same skips with
 * the same sentences, the same replacement parts. Walking 10,000 messages again to find that out
 * was most of the step's time; the record is played back instead (the context still checks and
 * records every call as it did the first time).
 *
 * Played back only when every input is the same: the prepared conversation (the WeakMap key), the
 * interned params object (same value), the view's limit, no change made and no summary inserted in
 * this view yet, decisions for non-changes recorded (a re-plan, not a replay call: replay keeps
 * state of its own between calls), and every protection the recorded run asked about answered the
 * same way now (protections come from the config, which may have changed elsewhere). Anything
 * else runs the step and records it anew.
 */
import type { ChangeOptions, StrategyContext, SummaryInsert } from '../compaction/context.ts'
import type { Prepared } from '../compaction/prepared.ts'
import type { ReasonCode } from '../compaction/types.ts'
import type { Part } from '../model.ts'
import type { PartRef } from '../pairing.ts'
import { recall, remember } from '../recent-values.ts'

/**
 * What the step does to the context: its skips and replacements, recorded or not. Narrower than
 * `StrategyContext` on purpose (not a `Pick` of it): `skip` takes no options and `replace` no
 * known price, because the recorder keeps neither, so a step could not pass something its
 * played-back run would silently lose.
 */
export interface Out {
  skip(group: number, reason: ReasonCode, detail: string, ref?: PartRef): void
  replace(
    ref: PartRef,
    replacement: Part | null,
    kind: 'stub' | 'trim',
    reason: ReasonCode,
    detail: string,
    options: ChangeOptions,
  ): boolean
  insert(
    summary: SummaryInsert,
    reason: ReasonCode,
    detail: string,
    options: ChangeOptions,
  ): boolean
  /** Is the part protected (`ctx.protectionOf(group, ref) !== null`)? */
  isProtected(group: number, ref: PartRef): boolean
}

/** One recorded run. Parallel arrays, one entry per call (no object per decision). */
interface Recorded {
  readonly p: object
  readonly limit: number
  /** Per call: the group (skips) or -1 (replacements). */
  readonly groups: number[]
  readonly reasons: ReasonCode[]
  readonly details: string[]
  readonly refs: (PartRef | undefined)[]
  /** Replacements: the kind ('stub' | 'trim'); inserts: 'insert'; skips: null. */
  readonly kinds: ('stub' | 'trim' | 'insert' | null)[]
  /** Replacements: the part; inserts: the summary inserted. */
  readonly parts: (Part | SummaryInsert | null)[]
  readonly options: (ChangeOptions | null)[]
  /** Protection questions asked, and their answers. */
  readonly askedGroups: number[]
  readonly askedRefs: PartRef[]
  readonly answers: boolean[]
}

/** Can a record be made or played back here: an untouched view of a re-plan (not replay)? */
function untouched(ctx: StrategyContext): boolean {
  return ctx.recordNonChanges && ctx.view.changeMark === 0 && ctx.view.summaries().length === 0
}

/** The context itself, unrecorded. */
export function direct(ctx: StrategyContext): Out {
  return {
    skip: (group, reason, detail, ref) => ctx.skip(group, reason, detail, ref),
    replace: (ref, replacement, kind, reason, detail, options) =>
      ctx.replace(ref, replacement, kind, reason, detail, options),
    insert: (summary, reason, detail, options) => ctx.insert(summary, reason, detail, options),
    isProtected: (group, ref) => ctx.protectionOf(group, ref) !== null,
  }
}

/** Recording and playback for one strategy (each keeps its own records). */
export interface Playback {
  /** Play back the last record when every input is the same (see above); whether it did. */
  playBack(ctx: StrategyContext, p: object): boolean
  /**
   * Where the step's calls go: straight to the context, and into a record when the view is
   * untouched; `finish` keeps the record once the step has run to its end.
   */
  recorder(ctx: StrategyContext, p: object): { out: Out; finish(): void }
}

/**
 * Records kept per conversation, newest last: an edit and its undo (or a look at another value
 * and back) alternate between a few params values, and the shipped value's record must survive
 * the edits in between.
 */
const MAX_RECORDS = 4

export function createPlayback(): Playback {
  const records = new WeakMap<Prepared, Map<object, Recorded>>()
  return {
    playBack(ctx, p) {
      const byParams = records.get(ctx.view.prepared)
      const r = byParams ? recall(byParams, p) : undefined
      if (!byParams || !r || r.limit !== ctx.view.limit || !untouched(ctx)) return false
      for (let i = 0; i < r.answers.length; i++) {
        const now = ctx.protectionOf(r.askedGroups[i] as number, r.askedRefs[i]) !== null
        if (now !== r.answers[i]) return false
      }
      // Newest last: the record just used is the last one evicted.
      byParams.delete(p)
      byParams.set(p, r)
      for (let i = 0; i < r.details.length; i++) {
        const kind = r.kinds[i]
        const reason = r.reasons[i] as ReasonCode
        const detail = r.details[i] as string
        if (kind === null || kind === undefined) {
          ctx.skip(r.groups[i] as number, reason, detail, r.refs[i])
        } else if (kind === 'insert') {
          ctx.insert(r.parts[i] as SummaryInsert, reason, detail, r.options[i] ?? {})
        } else {
          const ref = r.refs[i] as PartRef
          ctx.replace(ref, r.parts[i] as Part | null, kind, reason, detail, r.options[i] ?? {})
        }
      }
      return true
    },
    recorder(ctx, p) {
      if (!untouched(ctx)) return { out: direct(ctx), finish: () => {} }
      const r: Recorded = {
        p,
        limit: ctx.view.limit,
        groups: [],
        reasons: [],
        details: [],
        refs: [],
        kinds: [],
        parts: [],
        options: [],
        askedGroups: [],
        askedRefs: [],
        answers: [],
      }
      const out: Out = {
        skip(group, reason, detail, ref) {
          r.groups.push(group)
          r.reasons.push(reason)
          r.details.push(detail)
          r.refs.push(ref)
          r.kinds.push(null)
          r.parts.push(null)
          r.options.push(null)
          ctx.skip(group, reason, detail, ref)
        },
        replace(ref, replacement, kind, reason, detail, options) {
          r.groups.push(-1)
          r.reasons.push(reason)
          r.details.push(detail)
          r.refs.push(ref)
          r.kinds.push(kind)
          r.parts.push(replacement)
          r.options.push(options)
          return ctx.replace(ref, replacement, kind, reason, detail, options)
        },
        insert(summary, reason, detail, options) {
          r.groups.push(-1)
          r.reasons.push(reason)
          r.details.push(detail)
          r.refs.push(undefined)
          r.kinds.push('insert')
          r.parts.push(summary)
          r.options.push(options)
          return ctx.insert(summary, reason, detail, options)
        },
        isProtected(group, ref) {
          const answer = ctx.protectionOf(group, ref) !== null
          r.askedGroups.push(group)
          r.askedRefs.push(ref)
          r.answers.push(answer)
          return answer
        },
      }
      const finish = () => {
        let byParams = records.get(ctx.view.prepared)
        if (!byParams) {
          byParams = new Map()
          records.set(ctx.view.prepared, byParams)
        }
        remember(byParams, p, r, MAX_RECORDS)
      }
      return { out, finish }
    },
  }
}
