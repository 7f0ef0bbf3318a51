import type { Conversation } from '../model.ts'
import { checkInvariants, type InvariantReport } from './invariants.ts'
import { runPipeline, type PipelineOutcome, type StrategyRegistry } from './pipeline.ts'
import { prepare, type Prepared } from './prepared.ts'
import { computeProtections } from './protect.ts'
import { project } from './project.ts'
import type { Decision, EngineConfig, EngineDeps } from './types.ts'
import { WorkingView } from './view.ts'

export interface CompactionResult extends PipelineOutcome {
  /** What the model would receive. */
  readonly projection: Conversation
  readonly invariants: InvariantReport
  /** Decisions that changed the projection (exclude/stub/trim/insert). */
  readonly changes: number
}

const CHANGING = new Set<Decision['kind']>(['exclude', 'stub', 'trim', 'insert'])
export const isChange = (d: Decision): boolean => CHANGING.has(d.kind)

/**
 * Run a config over a conversation (SPEC §5): `run(conversation, config, deps) → result`. Pure
 * and deterministic given the injected deps; the conversation is never mutated. Invariants are
 * checked after the run; idempotence by running the same config on the projection (skipped with
 * `checkIdempotence: false`, e.g. inside sweeps).
 */
export async function compact(
  input: Conversation | Prepared,
  config: EngineConfig,
  deps: EngineDeps,
  registry: StrategyRegistry,
  options: { checkIdempotence?: boolean } = {},
): Promise<CompactionResult> {
  const prepared = 'grouping' in input ? input : prepare(input, deps.counter)
  const view = new WorkingView(prepared)
  const outcome = await runPipeline(view, config, deps, registry)
  const projection = project(view)
  const checks = checkInvariants(
    view,
    projection,
    outcome.decisions,
    computeProtections(view, config.protections),
  )
  if (options.checkIdempotence !== false) {
    const again = new WorkingView(prepare(projection, deps.counter))
    const second = await runPipeline(again, config, deps, registry)
    const extra = second.decisions.filter(isChange)
    checks.push({
      id: 'idempotent',
      ok: extra.length === 0,
      detail:
        extra.length === 0
          ? 'running the same config on the projection changes nothing more'
          : `a second run on the projection made ${extra.length} more changes (first: ${extra[0]?.strategy} ${extra[0]?.reason})`,
      offenders: extra.slice(0, 50).map((d) => d.groupId),
    })
  }
  return {
    ...outcome,
    projection,
    invariants: { ok: checks.every((c) => c.ok), checks },
    changes: outcome.decisions.filter(isChange).length,
  }
}
