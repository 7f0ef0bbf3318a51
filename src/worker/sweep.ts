/**
 * Sweep: the same config run once per value of one numeric parameter, without replay, reporting
 * tokens after, tokens saved and invariant violations per value.
 */
import type { Conversation } from '../engine/model.ts'
import type { TextCounter } from '../engine/tokens/types.ts'
import type { ConfigIssue } from '../config/validate.ts'
import type { SweepPoint } from './protocol.ts'

export interface SweepOptions {
  /** Called between points; resolving false abandons the sweep (stale). */
  readonly checkpoint: (done: number, total: number) => Promise<boolean>
}

export type SweepOutcome =
  | { readonly kind: 'swept'; readonly points: readonly SweepPoint[] }
  | { readonly kind: 'invalid'; readonly issues: readonly ConfigIssue[] }
  | { readonly kind: 'stale' }

export function sweepConfig(
  _conversation: Conversation,
  _counter: TextCounter,
  _config: unknown,
  _path: string,
  _values: readonly number[],
  _options: SweepOptions,
): Promise<SweepOutcome> {
  return Promise.reject(new Error('sweep: not built yet'))
}
