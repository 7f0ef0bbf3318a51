import { accountingFor } from '../accounting/index.ts'
import type { Reconciliation } from '../accounting/types.ts'
import type { Conversation } from '../model.ts'
import { checkInvariants, type InvariantCheck, type InvariantReport } from './invariants.ts'
import { runPipeline, type PipelineOutcome, type StrategyRegistry } from './pipeline.ts'
import { prepare, type Prepared } from './prepared.ts'
import { computeProtections } from './protect.ts'
import { project } from './project.ts'
import type { Decision, EngineConfig, EngineDeps } from './types.ts'
import { WorkingView } from './view.ts'
import { withConversation, withFields } from '../objects.ts'

export interface CompactionResult extends PipelineOutcome {
  /** What the model would receive. */
  readonly projection: Conversation
  readonly invariants: InvariantReport
  /** Decisions that changed the projection (exclude/stub/trim/insert). */
  readonly changes: number
  /** How many times the config ran (the last one changed nothing, unless capped). */
  readonly rounds: number
  /** How the figures were reconstructed and reconciled with the transcript's reported usage. */
  readonly reconciliation: Reconciliation
}

const CHANGING = new Set<Decision['kind']>(['exclude', 'stub', 'trim', 'insert'])
export const isChange = (d: Decision): boolean => CHANGING.has(d.kind)

/** Rounds before giving up on a fixed point (the idempotence invariant then fails). */
const MAX_ROUNDS = 4

/**
 * Run a config over a conversation (SPEC §5): `run(conversation, config, deps) → result`. Pure
 * and deterministic given the injected deps; the conversation is never mutated.
 *
 * The config then runs again on its own projection until a round changes nothing: what a step
 * decided can depend on what a later step did (a summary a later step inserted, a stub a later
 * step dropped), and an agent that compacts every turn would see exactly that second round. The
 * result is a fixed point, so "running the same config on the projection changes nothing more"
 * (SPEC §5 idempotence) holds by construction whenever the rounds converge — and is reported as
 * violated when they do not. Decisions of later rounds carry `round`. Invariants are checked in
 * every round. `checkIdempotence: false` runs a single round (sweeps, benchmarks).
 */
export async function compact(
  input: Conversation | Prepared,
  config: EngineConfig,
  deps: EngineDeps,
  registry: StrategyRegistry,
  options: { checkIdempotence?: boolean } = {},
): Promise<CompactionResult> {
  let prepared = 'grouping' in input ? input : prepare(input, deps.counter)
  // Figures are the last call's, as the provider would count it: the reconciliation is fitted on
  // the conversation as loaded and carried into every round (a projection reports no usage).
  const accounting = accountingFor(prepared, config.accounting)
  const rounds = options.checkIdempotence === false ? 1 : MAX_ROUNDS + 1
  // Each round's decisions, joined at the end (most runs have one round: its list is the result).
  const perRound: (readonly Decision[])[] = []
  const checks = new Map<string, InvariantCheck>()
  let first: PipelineOutcome | null = null
  let last: PipelineOutcome | null = null
  let projection: Conversation = prepared.conversation
  let settled = false
  let round = 0
  for (; round < rounds; round++) {
    const view = new WorkingView(prepared, undefined, accounting.lastCall)
    const outcome = await runPipeline(view, config, deps, registry)
    const changed = outcome.decisions.some(isChange)
    if (round > 0 && !changed) {
      settled = true
      break
    }
    first ??= outcome
    last = outcome
    perRound.push(
      round === 0 ? outcome.decisions : outcome.decisions.map((d) => withFields(d, { round })),
    )
    projection = project(view)
    for (const c of checkInvariants(
      view,
      projection,
      outcome.decisions,
      computeProtections(view, config.protections),
    )) {
      const seen = checks.get(c.id)
      if (!seen || (seen.ok && !c.ok)) checks.set(c.id, c)
    }
    if (!changed) {
      settled = true
      break
    }
    // Unchanged messages are the same objects in the projection: their prices carry over.
    if (round + 1 < rounds) prepared = prepare(projection, deps.counter, { reuse: prepared })
  }
  const decisions = perRound.length === 1 ? (perRound[0] as readonly Decision[]) : perRound.flat()
  const changes = countChanges(decisions)
  // The projection carries the figures it was measured with (see ConversationMeta).
  if (changes > 0) {
    const last = accounting.reconciliation.figures.at(-1)
    const earlier = prepared.conversation.meta.carriedAccounting?.changedFrom ?? Infinity
    const changedFrom = Math.min(earlier, firstDifference(input, projection))
    projection = withConversation(projection, {
      meta: withFields(projection.meta, {
        carriedAccounting: {
          prefixTokens: last?.prefix ?? accounting.reconciliation.prefixTokens,
          scale: accounting.reconciliation.scale,
          ...(Number.isFinite(changedFrom) ? { changedFrom } : {}),
        },
      }),
    })
  }
  const all = [...checks.values()]
  if (options.checkIdempotence !== false) {
    all.push({
      id: 'idempotent',
      ok: settled,
      detail: settled
        ? `running the same config on the projection changes nothing more (${round} round${round === 1 ? '' : 's'})`
        : `still changing after ${MAX_ROUNDS + 1} rounds: the config does not settle on a fixed point`,
      offenders: [],
    })
  }
  const base = first as PipelineOutcome
  const end = last as PipelineOutcome
  // One literal with every field, not a spread of `base`: V8 gave each spread copy a hidden class
  // of its own, so every reader of a result (report, risk, replay) met a new map per file.
  return {
    decisions,
    steps: base.steps,
    tokensBefore: base.tokensBefore,
    tokensAfter: end.tokensAfter,
    window: base.window,
    fallbackRan: base.fallbackRan || end.fallbackRan,
    projection,
    invariants: { ok: all.every((c) => c.ok), checks: all },
    changes,
    rounds: round,
    reconciliation: accounting.reconciliation,
  }
}

/** How many decisions changed the projection (`filter(isChange).length`, without the copy). */
function countChanges(decisions: readonly Decision[]): number {
  let n = 0
  // Indexed: run once per re-plan, this loop stays unoptimised, and `for…of` then made an
  // iterator result object per decision (heap sampling: ~0.5 MB of the ~6.5 MB of a re-plan).
  for (let i = 0; i < decisions.length; i++) if (CHANGING.has((decisions[i] as Decision).kind)) n++
  return n
}

/**
 * The first projection index whose message is not the original one (unchanged messages are the
 * same objects in the projection): where a drop, a replacement or an inserted summary begins.
 */
function firstDifference(input: Conversation | Prepared, projection: Conversation): number {
  const original = ('grouping' in input ? input.conversation : input).messages
  const out = projection.messages
  const n = Math.min(original.length, out.length)
  for (let i = 0; i < n; i++) if (original[i] !== out[i]) return i
  return original.length === out.length ? Infinity : n
}
