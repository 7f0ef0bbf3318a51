/**
 * The step's calls on the context (skips and trims, in order), recorded per prepared conversation
 * and params value, and played back when the step runs again on the same untouched view.
 *
 * What tool-payload-trim decides is a pure function of the conversation, the params value, the
 * view it starts from and the protections it asks about. A re-plan in the app (a new config object
 * on every edit, the params interned by value: intern-params.ts) on a view nothing has changed yet
 * — this step first in its pipeline, as in the adachsoft preset — decides exactly what the last
 * run decided: the same skips with the same sentences, the same replacement parts. Walking 10,000
 * parts again to find that out was most of the step's time; the record is played back instead.
 *
 * Played back only when every input is the same: the prepared conversation (the WeakMap key), the
 * interned params object (same value), the view's limit, no change made and no summary inserted in
 * this view yet, the same `recordNonChanges`, and every protection the recorded run asked about
 * answered the same way now (protections come from the config, which may have changed elsewhere).
 * Anything else runs the step and records it anew.
 */
import type { ChangeOptions, StrategyContext } from '../../compaction/context.ts'
import type { Prepared } from '../../compaction/prepared.ts'
import type { ReasonCode } from '../../compaction/types.ts'
import type { Part } from '../../model.ts'
import type { PartRef } from '../../pairing.ts'
import type { ToolPayloadTrimParams } from './params.ts'

/** What the step does to the context: the calls trim.ts and the scan make, recorded or not. */
export interface Out {
  skip(group: number, reason: ReasonCode, detail: string, ref: PartRef): void
  replace(ref: PartRef, replacement: Part, detail: string, options: ChangeOptions): void
  /** Is the part protected (`ctx.protectionOf(group, ref) !== null`)? */
  isProtected(group: number, ref: PartRef): boolean
}

/** One recorded run. Parallel arrays, one entry per call (no object per decision). */
interface Recorded {
  readonly p: ToolPayloadTrimParams
  readonly limit: number
  readonly recordNonChanges: boolean
  /** Per call: the group (skips) or -1 (replacements). */
  readonly groups: number[]
  readonly reasons: (ReasonCode | null)[]
  readonly details: string[]
  readonly refs: PartRef[]
  readonly parts: (Part | null)[]
  readonly options: (ChangeOptions | null)[]
  /** Protection questions asked, and their answers. */
  readonly askedGroups: number[]
  readonly askedRefs: PartRef[]
  readonly answers: boolean[]
}

const records = new WeakMap<Prepared, Recorded>()

/** Can a record be made or played back here: is this view untouched by earlier steps? */
function untouched(ctx: StrategyContext): boolean {
  return ctx.view.changeMark === 0 && ctx.view.summaries().length === 0
}

/**
 * Play back the last record for this conversation when every input is the same (see above);
 * returns whether it did.
 */
export function playBack(ctx: StrategyContext, p: ToolPayloadTrimParams): boolean {
  const r = records.get(ctx.view.prepared)
  if (!r || r.p !== p || r.limit !== ctx.view.limit) return false
  if (r.recordNonChanges !== ctx.recordNonChanges || !untouched(ctx)) return false
  for (let i = 0; i < r.answers.length; i++) {
    const now = ctx.protectionOf(r.askedGroups[i] as number, r.askedRefs[i]) !== null
    if (now !== r.answers[i]) return false
  }
  for (let i = 0; i < r.details.length; i++) {
    const reason = r.reasons[i]
    if (reason !== null && reason !== undefined) {
      ctx.skip(r.groups[i] as number, reason, r.details[i] as string, r.refs[i])
    } else {
      const options = r.options[i] ?? {}
      ctx.replace(
        r.refs[i] as PartRef,
        r.parts[i] ?? null,
        'trim',
        'payload_trimmed',
        r.details[i] as string,
        options,
      )
    }
  }
  return true
}

/** The context itself, unrecorded (a view some step already changed). */
function direct(ctx: StrategyContext): Out {
  return {
    skip: (group, reason, detail, ref) => ctx.skip(group, reason, detail, ref),
    replace: (ref, replacement, detail, options) => {
      ctx.replace(ref, replacement, 'trim', 'payload_trimmed', detail, options)
    },
    isProtected: (group, ref) => ctx.protectionOf(group, ref) !== null,
  }
}

/**
 * Where the step's calls go: straight to the context, and into a record when the view is
 * untouched; `finish` keeps the record once the step has run to its end.
 */
export function recorder(
  ctx: StrategyContext,
  p: ToolPayloadTrimParams,
): { out: Out; finish(): void } {
  if (!untouched(ctx)) return { out: direct(ctx), finish: () => {} }
  const r: Recorded = {
    p,
    limit: ctx.view.limit,
    recordNonChanges: ctx.recordNonChanges,
    groups: [],
    reasons: [],
    details: [],
    refs: [],
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
      r.parts.push(null)
      r.options.push(null)
      ctx.skip(group, reason, detail, ref)
    },
    replace(ref, replacement, detail, options) {
      r.groups.push(-1)
      r.reasons.push(null)
      r.details.push(detail)
      r.refs.push(ref)
      r.parts.push(replacement)
      r.options.push(options)
      ctx.replace(ref, replacement, 'trim', 'payload_trimmed', detail, options)
    },
    isProtected(group, ref) {
      const answer = ctx.protectionOf(group, ref) !== null
      r.askedGroups.push(group)
      r.askedRefs.push(ref)
      r.answers.push(answer)
      return answer
    },
  }
  return { out, finish: () => records.set(ctx.view.prepared, r) }
}
