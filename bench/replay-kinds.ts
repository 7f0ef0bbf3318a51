/**
 * A replay's time per model call by what the pipeline did at the call (bench/replay.ts). The
 * 5k/1k ratio divides whole replays, so it cannot tell a kind of call that costs more in the longer
 * session (a cost per call that grows) from a longer session that holds more of the costlier kinds
 * (its shape: above a step's trigger for a larger share of its calls). These say which.
 */
import { replayCancellable } from '../src/engine/compaction/replay.ts'
import type { EngineConfig, EngineDeps } from '../src/engine/compaction/types.ts'
import type { Prepared } from '../src/engine/compaction/prepared.ts'
import { wrapStrategies } from './compaction.ts'
import { median, round } from './timing.ts'

/** What the pipeline did at a call: no step ran, a step ran and changed nothing, one changed something. */
export type CallKind = 'quiet' | 'ran' | 'fired'
export const CALL_KINDS: readonly CallKind[] = ['quiet', 'ran', 'fired']

export interface KindCost {
  /** Calls of this kind in the replay. */
  readonly calls: number
  /** Microseconds per call of this kind (median over the instrumented replays). */
  readonly usPerCall: number
}

export type CallKinds = Readonly<Record<CallKind, KindCost>>

/**
 * Instrumented replays: the median over this many of each kind's time per call. The short replay's
 * quiet calls add up to a few milliseconds, so one young-generation collection landing among them
 * (2–3 ms) doubled their figure in one of three rounds; over eleven it is one sample of many.
 */
const ROUNDS = 11

/**
 * Time every model call of `ROUNDS` replays (from one checkpoint to the next: the checkpoint runs
 * before each call's work) and sort the calls by kind. The checkpoint's await and the strategies'
 * wrapper add well under a microsecond per call, the same for every kind.
 */
export async function callKinds(
  prepared: Prepared,
  config: EngineConfig,
  deps: EngineDeps,
): Promise<CallKinds> {
  let ran = false
  const registry = wrapStrategies((_id, run) => (ctx, params) => {
    ran = true
    return run(ctx, params)
  })
  const samples = new Map<CallKind, number[]>(CALL_KINDS.map((kind) => [kind, []]))
  const counts = new Map<CallKind, number>()
  for (let r = 0; r < ROUNDS; r++) {
    const marks: number[] = []
    const didRun: boolean[] = []
    const points = await replayCancellable(prepared, config, deps, registry, {
      checkpoint: () => {
        if (marks.length > 0) didRun.push(ran)
        ran = false
        marks.push(performance.now())
        return true
      },
    })
    marks.push(performance.now())
    didRun.push(ran)
    const spent = new Map<CallKind, { ms: number; calls: number }>()
    for (const [j, point] of (points ?? []).entries()) {
      const kind: CallKind = point.fired.length > 0 ? 'fired' : didRun[j] ? 'ran' : 'quiet'
      const s = spent.get(kind) ?? { ms: 0, calls: 0 }
      s.ms += (marks[j + 1] as number) - (marks[j] as number)
      s.calls++
      spent.set(kind, s)
    }
    for (const kind of CALL_KINDS) {
      const s = spent.get(kind)
      counts.set(kind, s?.calls ?? 0)
      if (s) samples.get(kind)?.push((1000 * s.ms) / s.calls)
    }
  }
  const cost = (kind: CallKind): KindCost => {
    const us = samples.get(kind) ?? []
    return { calls: counts.get(kind) ?? 0, usPerCall: us.length > 0 ? round(median(us), 1) : 0 }
  }
  return { quiet: cost('quiet'), ran: cost('ran'), fired: cost('fired') }
}

/** "quiet 4.7 µs × 607 · ran 16.3 µs × 363 · fired 218 µs × 30". */
export const showKinds = (k: CallKinds): string =>
  CALL_KINDS.filter((kind) => k[kind].calls > 0)
    .map((kind) => `${kind} ${k[kind].usPerCall} µs × ${k[kind].calls}`)
    .join(' · ')
