/**
 * Compare: two configs run on the same conversation (no replay), with the groups whose status or
 * explaining decision differ.
 */
import type { Conversation } from '../engine/model.ts'
import type { TextCounter } from '../engine/tokens/types.ts'
import type { ConfigIssue } from '../config/validate.ts'
import type { FromWorkerMap } from './protocol.ts'

export type CompareOutcome =
  | { readonly kind: 'compared'; readonly result: FromWorkerMap['compared'] }
  | { readonly kind: 'invalid'; readonly issues: readonly ConfigIssue[] }

export function compareConfigs(
  _conversation: Conversation,
  _counter: TextCounter,
  _a: unknown,
  _b: unknown,
): Promise<CompareOutcome> {
  return Promise.reject(new Error('compare: not built yet'))
}
