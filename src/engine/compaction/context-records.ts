import type { PartRef } from '../pairing.ts'
import { describeProtection } from './context-types.ts'
import { written, type Sentence } from './sentence.ts'
import type { Decision, ProtectionKind, ReasonCode } from './types.ts'

/** What every decision of a step records about who made it. */
export interface RecordSource {
  /** Id of the running strategy. */
  readonly strategy: string
  /** Pipeline step index (−1 for the fallback). */
  readonly step: number
  groupIdOf(group: number): string
}

/**
 * The fields every decision shares, in their order (`fixed` and `newer` only when set). The
 * literal forms in StrategyContext and context-insert.ts repeat these keys in this order: the hot
 * paths build one plain object, the rare ones spread this.
 */
export function recordBase(
  src: RecordSource,
  group: number,
  reason: ReasonCode,
  sentence: Sentence,
  before: number,
  after: number,
  fixed?: string,
  newer?: PartRef,
) {
  const { strategy, step } = src
  const groupId = src.groupIdOf(group)
  // One literal per shape, keys in the order above: the conditional spreads built the record in
  // dictionary mode, several times the size (heap sampling: ~1.5 KB per refused stub, and every
  // record lives as long as the plan), and the callers spread it once more.
  if (fixed) {
    return newer
      ? {
          strategy,
          step,
          reason,
          sentence,
          groupId,
          tokensBefore: before,
          tokensAfter: after,
          fixed,
          newer,
        }
      : {
          strategy,
          step,
          reason,
          sentence,
          groupId,
          tokensBefore: before,
          tokensAfter: after,
          fixed,
        }
  }
  return newer
    ? { strategy, step, reason, sentence, groupId, tokensBefore: before, tokensAfter: after, newer }
    : { strategy, step, reason, sentence, groupId, tokensBefore: before, tokensAfter: after }
}

/** The decision for an exclusion (a literal unless `fixed` is set: same keys, same order). */
export function exclusionRecord(
  src: RecordSource,
  group: number,
  reason: ReasonCode,
  sentence: Sentence,
  before: number,
  fixed: string | undefined,
): Decision {
  if (fixed)
    return { kind: 'exclude', ...recordBase(src, group, reason, sentence, before, 0, fixed) }
  return {
    kind: 'exclude',
    strategy: src.strategy,
    step: src.step,
    reason,
    sentence,
    groupId: src.groupIdOf(group),
    tokensBefore: before,
    tokensAfter: 0,
  }
}

/**
 * The decision for an attempt a protection stopped (or a group a step kept by one): `how` joins the
 * step's sentence to the protection's (" — refused: ", " — kept: "), written when read.
 */
export function protectedRecord(
  src: RecordSource,
  group: number,
  attempted: 'exclude' | 'stub' | 'trim' | 'insert',
  protection: ProtectionKind,
  sentence: Sentence,
  how: string,
  tokens: number,
  target?: PartRef,
): Decision {
  const said = () => `${written(sentence)}${how}${describeProtection(protection)}`
  const base = recordBase(src, group, 'protected', said, tokens, tokens)
  return target
    ? { kind: 'protected', attempted, protection, target, ...base }
    : { kind: 'protected', attempted, protection, ...base }
}
