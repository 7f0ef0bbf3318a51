/**
 * A step's run, recorded against the exact view state it started from (its lineage), and played
 * back when the same step meets that state again with the same inputs: a re-plan of any step,
 * not only the first one of a pipeline, once every step before it was played back.
 *
 * What a step decides and changes is a function of its inputs, and the context's own answers
 * (protections, no savings, newest copies, every figure on a decision) are functions of the view
 * state and the protections. So when these are all the same as when the record was made, the
 * decisions are the recorded ones and the view's changes are the recorded ones, in order:
 *  - the view state: its lineage token (`WorkingView.lineage`), which names one exact state — a
 *    view nothing changed (per prepared conversation, accounting and limit), or the state a
 *    recorded step left; any change that was not recorded or played back makes it stale;
 *  - the params: the same interned object (intern-params.ts: same value);
 *  - the protections: the same object — over the whole conversation they are kept per prepared
 *    conversation and protection config value (protect.ts), so the same object is the same value
 *    (a new one only runs the step afresh);
 *  - the step index (recorded on every decision) and the strategy (records are per strategy);
 *  - `recordNonChanges` (a re-plan: replay keeps state between calls and never records);
 *  - whatever else the step reads, given by the step as `inputs` (the usable window for the falai
 *    tiers; the summariser's value key for summarize, which is not recorded at all with a
 *    summariser that has none; clear-tool-uses and supersede read nothing else: see their `run`).
 * A run is recorded the second time it meets the same state and params (see `StepRecords`).
 * Played back, the recorded decisions (immutable records) are the step's decisions and the taped
 * changes are made again; the view's lineage is then the record's `after`, so the next step can
 * be played back too. A step whose changes were rolled back is not recorded.
 *
 * Caches a step keeps of its own are memos of values (keyed on the prepared conversation, the
 * params object or a view): a played-back run neither reads nor updates them, and a later fresh
 * run computes what it needs as if the played-back run had not happened.
 */
import type { StrategyContext } from '../compaction/context.ts'
import type { Protections } from '../compaction/protect.ts'
import type { Decision } from '../compaction/types.ts'
import { ViewTape } from '../compaction/view-tape.ts'
import { recall, remember } from '../recent-values.ts'

/** A step's other inputs, compared by value (numbers, strings, booleans, null). */
export type StepInputs = readonly (string | number | boolean | null | undefined)[]

interface StepRecord {
  readonly step: number
  readonly limit: number
  readonly protections: Protections
  readonly inputs: StepInputs
  /** The changes and decisions, once recorded; null while the run was only seen (see below). */
  tape: ViewTape | null
  decisions: readonly Decision[] | null
  /** The lineage of the view this run leaves (the same whether it was seen or recorded). */
  readonly after: object
}

/**
 * Records per lineage token, then per params object. A few per token: an edit and its undo
 * alternate between values, and the value in use must outlive the edits in between; records of a
 * lineage that no record names any longer (its parent evicted) go with their token.
 */
const MAX_RECORDS = 4

/**
 * Recorded runs (tapes and decisions) kept per step, over every lineage: the tree of lineages is
 * MAX_RECORDS wide at every recorded step, so without this a user trying values at every step
 * could keep 4^depth records alive (about 1 MB each on 10,000 messages). Per step and prepared
 * conversation, the least recently used beyond it is forgotten back to a seen run (recorded
 * again if it comes back).
 */
const MAX_RECORDED = 8

/** Runs played back and recorded so far, all steps together (tests check that playback happens). */
export const stepRecordCounts = { played: 0, recorded: 0 }

/**
 * A run met the first time is only seen: it runs untaped and keeps no decisions alive, but its
 * key and the token of the state it leaves are kept, so the steps after it are keyed as well. The
 * second time the same step meets the same state with the same inputs, it is recorded (under the
 * same token: the state it leaves is the same), and played back from the third. A value tried
 * once (a slider dragged through numbers, every step's numbers edited at each re-plan) then costs
 * no tape and no retained decisions; a value that stays plays back from its third re-plan.
 */
export interface StepRecords {
  /**
   * Run `body` (the step, synchronous: the view tapes its changes until it returns) unless a
   * record of it can be played back; record it when the view's state has a lineage.
   */
  run(ctx: StrategyContext, p: object, inputs: StepInputs, body: () => void): void
  /**
   * The same for a step that awaits (summarize: its summariser). Only the step's own awaits may
   * come between its changes: the pipeline runs one step of a view at a time.
   */
  runAsync(
    ctx: StrategyContext,
    p: object,
    inputs: StepInputs,
    body: () => Promise<void>,
  ): Promise<void>
}

function sameInputs(a: StepInputs, b: StepInputs): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

/**
 * What to do with one run (see `StepRecords`): run it as it is (no lineage), nothing (it was played
 * back), or run it and then `finish` it (kept as seen, or recorded from `tape`); a run that threw
 * is not finished (the pipeline rolls its changes back).
 */
type Plan =
  | { readonly kind: 'direct' }
  | { readonly kind: 'played' }
  | { readonly kind: 'run'; readonly tape: ViewTape | null; finish(): void }

export function createStepRecords(): StepRecords {
  const records = new WeakMap<object, Map<object, StepRecord>>()
  const seenRuns = new WeakMap<object, Map<object, StepRecord>>()
  /**
   * Recorded runs per prepared conversation, least recently used first (see MAX_RECORDED); per
   * conversation so that none outlives its conversation.
   */
  const recordedBy = new WeakMap<object, Set<StepRecord>>()
  const used = (prepared: object, r: StepRecord) => {
    let recorded = recordedBy.get(prepared)
    if (!recorded) recordedBy.set(prepared, (recorded = new Set()))
    recorded.delete(r)
    recorded.add(r)
    if (recorded.size <= MAX_RECORDED) return
    const oldest = recorded.values().next().value as StepRecord
    recorded.delete(oldest)
    oldest.tape = null
    oldest.decisions = null
  }
  const DIRECT: Plan = { kind: 'direct' }
  const PLAYED: Plan = { kind: 'played' }

  function plan(ctx: StrategyContext, p: object, inputs: StepInputs): Plan {
    const { view } = ctx
    // Over part of the conversation (a call of a replay) protections are made per call, so no
    // record could be played back there: none is made either (one per limit would pile up).
    const whole = view.limit === view.prepared.conversation.messages.length
    const before = ctx.recordNonChanges && whole ? view.lineage() : null
    if (before === null) return DIRECT
    let byParams = records.get(before)
    if (!byParams) records.set(before, (byParams = new Map()))
    // Seen runs are kept apart: values tried once must not push recorded ones out.
    let bySeen = seenRuns.get(before)
    if (!bySeen) seenRuns.set(before, (bySeen = new Map()))
    const matches = (r: StepRecord | undefined): r is StepRecord =>
      r !== undefined &&
      r.step === ctx.step &&
      r.limit === view.limit &&
      r.protections === ctx.protections &&
      sameInputs(r.inputs, inputs)
    const kept = recall(byParams, p)
    const r = matches(kept) ? kept : bySeen.get(p)
    if (matches(r) && r.tape && r.decisions) {
      view.play(r.tape)
      ctx.playedBack(r.decisions)
      view.setLineage(r.after)
      used(view.prepared, r)
      stepRecordCounts.played++
      return PLAYED
    }
    if (!matches(r)) {
      // First sight (see above): run untaped, keep the key and the token of the state it leaves.
      const seenIn = bySeen
      return {
        kind: 'run',
        tape: null,
        finish() {
          const seen: StepRecord = {
            step: ctx.step,
            limit: view.limit,
            protections: ctx.protections,
            inputs,
            tape: null,
            decisions: null,
            after: {},
          }
          remember(seenIn, p, seen, MAX_RECORDS)
          view.setLineage(seen.after)
        },
      }
    }
    const tape = new ViewTape()
    const first = ctx.decisions.length
    const keptIn = byParams
    view.recordInto(tape)
    return {
      kind: 'run',
      tape,
      finish() {
        if (tape.broken) return
        r.tape = tape
        r.decisions = ctx.decisions.slice(first)
        bySeen.delete(p)
        remember(keptIn, p, r, MAX_RECORDS)
        used(view.prepared, r)
        view.setLineage(r.after)
        stepRecordCounts.recorded++
      },
    }
  }

  return {
    run(ctx, p, inputs, body) {
      const next = plan(ctx, p, inputs)
      if (next.kind === 'played') return
      if (next.kind === 'direct') return body()
      try {
        body()
      } finally {
        if (next.tape) ctx.view.recordInto(null)
      }
      next.finish()
    },
    async runAsync(ctx, p, inputs, body) {
      const next = plan(ctx, p, inputs)
      if (next.kind === 'played') return
      if (next.kind === 'direct') return body()
      try {
        await body()
      } finally {
        if (next.tape) ctx.view.recordInto(null)
      }
      next.finish()
    },
  }
}
