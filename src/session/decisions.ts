/**
 * Decisions as columns for the wire (`WireDecisions`): a 10k-message run has up to 5,000
 * decisions, and as objects they were most of a field edit's 3 MB reply, cloned field by field
 * in the worker and again on the UI thread (issue 14). As columns the numbers are transferred
 * typed arrays and the repeating strings small tables. Pure; the UI reads them through these
 * helpers too.
 */
import type { Decision } from '../engine/compaction/types.ts'
import { detailOf } from '../engine/compaction/sentence.ts'
import { MAX_DECISIONS, type Sentences, type WireDecision, type WireDecisions } from './types.ts'

/** A decision of the columns as an object: every field but the sentence (`sentences` has it). */
export type WireDecisionFields = Omit<WireDecision, 'detail'>

/** Interns strings into a table, handing out each one's index. */
function table(): { readonly values: string[]; index(value: string): number } {
  const values: string[] = []
  const at = new Map<string, number>()
  return {
    values,
    index(value) {
      let i = at.get(value)
      if (i === undefined) {
        i = values.length
        values.push(value)
        at.set(value, i)
      }
      return i
    },
  }
}

/** The engine's decisions (already cut to what crosses) as columns. */
export function decisionColumns(decisions: readonly Decision[]): WireDecisions {
  const n = decisions.length
  const kinds = table()
  const strategies = table()
  const reasons = table()
  const kind = new Uint8Array(n)
  const strategy = new Uint16Array(n)
  const reason = new Uint16Array(n)
  const step = new Int32Array(n)
  const round = new Int32Array(n)
  const tokensBefore = new Float64Array(n)
  const tokensAfter = new Float64Array(n)
  const groupId: string[] = new Array(n)
  const fixed: Record<number, string> = {}
  for (let i = 0; i < n; i++) {
    const d = decisions[i] as Decision
    kind[i] = kinds.index(d.kind)
    strategy[i] = strategies.index(d.strategy)
    reason[i] = reasons.index(d.reason)
    step[i] = d.step
    round[i] = d.round ?? -1
    tokensBefore[i] = d.tokensBefore
    tokensAfter[i] = d.tokensAfter
    groupId[i] = d.groupId
    if (d.fixed !== undefined) fixed[i] = d.fixed
  }
  return {
    run: 0,
    length: n,
    kinds: kinds.values as WireDecision['kind'][],
    kind,
    strategies: strategies.values,
    strategy,
    reasons: reasons.values,
    reason,
    step,
    groupId,
    tokensBefore,
    tokensAfter,
    round,
    fixed,
  }
}

/** The kind of decision `i`. */
export function decisionKind(d: WireDecisions, i: number): WireDecision['kind'] {
  return d.kinds[d.kind[i] ?? 0] as WireDecision['kind']
}

/** Decision `i` as an object, without its sentence. */
export function wireDecisionAt(d: WireDecisions, i: number): WireDecisionFields {
  const fixed = d.fixed[i]
  const round = d.round[i] ?? -1
  return {
    kind: decisionKind(d, i),
    strategy: d.strategies[d.strategy[i] ?? 0] ?? '',
    step: d.step[i] ?? 0,
    reason: d.reasons[d.reason[i] ?? 0] ?? '',
    groupId: d.groupId[i] ?? '',
    tokensBefore: d.tokensBefore[i] ?? 0,
    tokensAfter: d.tokensAfter[i] ?? 0,
    ...(fixed !== undefined ? { fixed } : {}),
    ...(round >= 0 ? { round } : {}),
  }
}

/** Every decision as an object, in order (tests, and views that want the list). */
export function wireDecisionList(d: WireDecisions): WireDecisionFields[] {
  const out: WireDecisionFields[] = new Array(d.length)
  for (let i = 0; i < d.length; i++) out[i] = wireDecisionAt(d, i)
  return out
}

/** The typed-array buffers of the columns: transferred with the reply, not copied. */
export function decisionBuffers(d: WireDecisions): ArrayBuffer[] {
  return [d.kind, d.strategy, d.reason, d.step, d.tokensBefore, d.tokensAfter, d.round].map(
    (a) => a.buffer as ArrayBuffer,
  )
}

/**
 * The sentences of `indices` among `decisions` (the run's, in the order its columns hold them),
 * written now: the `sentences` request. An index outside the columns gets none ('').
 */
export function sentencesOf(
  run: number,
  decisions: readonly Decision[],
  indices: readonly number[],
): Sentences {
  const detail = indices.map((i) => {
    const d = Number.isInteger(i) && i >= 0 && i < MAX_DECISIONS ? decisions[i] : undefined
    return d ? detailOf(d) : ''
  })
  return { run, indices: [...indices], detail }
}
