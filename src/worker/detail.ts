/**
 * One group before and after the latest run, for the detail drawer (Pretty, Raw, Diff, Why,
 * Tokens). Text is cut at `maxChars` per part so a 2 MB tool output never crosses the boundary
 * whole; the drawer asks again with a larger limit for "show more".
 */
import type { Conversation } from '../engine/model.ts'
import type { TextCounter } from '../engine/tokens/types.ts'
import type { GroupDetail } from './protocol.ts'
import type { RunRecord } from './run.ts'

export function groupDetail(
  _conversation: Conversation,
  _counter: TextCounter,
  _record: RunRecord | null,
  _groupId: string,
  _maxChars: number,
): GroupDetail | null {
  throw new Error('group detail: not built yet')
}
