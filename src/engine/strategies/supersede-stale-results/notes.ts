/**
 * Words for decisions: LIP's decision codes, and what LIP would have done differently (the
 * `fixed` note on decisions where the fixed mode diverges from the faithful one).
 */
import type { StrategyContext } from '../../compaction/context.ts'
import type { Sentence } from '../../compaction/sentence.ts'
import type { ReasonCode } from '../../compaction/types.ts'
import type { PartRef } from '../../pairing.ts'
import type { ResourceIdentity } from './identity.ts'
import { removes, type Occurrence, type Outcome } from './plan.ts'
import { withFields } from '../../objects.ts'

/** LIP `str(ResourceIdentity)`: `tool:primary[:secondary…]`. */
export function lipKey(tool: string, id: ResourceIdentity, redact: (s: string) => string): string {
  const tail = id.secondary.length > 0 ? `:${id.secondary.join(':')}` : ''
  return redact(`${tool}:${id.primary}${tail}`)
}

/**
 * When the faithful plan would treat a result differently (stub vs keep), say what LIP would
 * have done and why; undefined when both agree.
 */
export function lipDifference(
  fixed: Outcome,
  lip: Outcome,
  occ: Occurrence,
  messageIdOf: (index: number) => string,
  redact: (s: string) => string,
): string | undefined {
  if (removes(fixed) === removes(lip)) {
    if (fixed.kind === 'drop' && lip.kind === 'stub')
      return 'LIP would have stubbed it instead: its max_stubs_per_resource is declared but never used'
    return undefined
  }
  const key = occ.identity ? `\`${lipKey(occ.tool, occ.identity, redact)}\`` : ''
  switch (lip.kind) {
    case 'stub':
      return `LIP would have stubbed it: it keys the call as ${key}, the same key as the newer result in message ${messageIdOf(lip.newer)}`
    case 'denied':
      return `LIP would have kept it: it categorises \`${occ.tool}\` as \`${occ.category}\` and ${lip.why}`
    case 'below_min':
      return 'LIP would have kept it: below its min_tool_output_tokens_to_compact'
    case 'newest':
    case 'single':
      return `LIP would have kept it: it keys the call as ${key}, which has no newer result`
    case 'no_identity':
      return 'LIP would have kept it: it finds no resource identity in the arguments'
    case 'already':
      return 'LIP would have skipped it as already compacted'
    case 'keep_recent':
    case 'drop':
      return undefined
  }
}

/** `ctx.skip` with a `fixed` note (skip has no options; the note is added to its record). */
export function skipWith(
  ctx: StrategyContext,
  group: number,
  reason: ReasonCode,
  detail: Sentence,
  ref: PartRef | undefined,
  fixed: string | undefined,
): void {
  ctx.skip(group, reason, detail, ref)
  annotateLast(ctx, fixed)
}

/** Add a `fixed` note to the decision just recorded. */
export function annotateLast(ctx: StrategyContext, fixed: string | undefined): void {
  if (!fixed) return
  const i = ctx.decisions.length - 1
  const d = ctx.decisions[i]
  if (d) ctx.decisions[i] = withFields(d, { fixed })
}
