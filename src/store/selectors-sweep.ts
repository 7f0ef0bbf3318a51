/**
 * Sweep, compare and the editor: the config-path helpers they share with validation and the
 * session. Their requests go
 * through `useEngineRequest`; their results are short-lived views of one panel, so they live in
 * the panels' request state rather than in a slice.
 */
import { useAppStore } from './context.ts'
import type { AppState } from './store.ts'

export { ConfigInvalidError, isStale } from '../worker/client.ts'
export {
  getAtPath,
  getIn,
  isRecord,
  isWithin,
  listAt,
  moveItem,
  pathText,
  removeItem,
  setIn,
  setNumberAtPath,
  type Path,
  type Segment,
} from '../worker/protocol.ts'

// The instant report is replaced on every load (not by the exact count): results computed on an
// earlier transcript are recognised by it and dropped.
const selectLoadedReport = (s: AppState) => s.report
/** Identity of the loaded transcript (changes on every load, not on a re-count). */
export const useLoadedReport = () => useAppStore(selectLoadedReport)
