/**
 * Sweep and compare: the worker requests they send and the config-path helpers they share with
 * the worker. Their results are short-lived views of one panel, so they live in the panels'
 * own state rather than in a slice; only the request plumbing comes from here.
 */
import { useAppStore, type AppState } from './store.ts'
import { engineClient } from './engine.ts'

export { ConfigInvalidError, isStale } from '../worker/client.ts'
export type { SideRequest } from '../worker/client.ts'
export { getAtPath, setNumberAtPath } from '../worker/configPath.ts'

/** Run `config` once per value of the number at `path`; a newer sweep makes this one stale. */
export const requestSweep = (
  config: unknown,
  path: string,
  values: readonly number[],
  onProgress: (done: number, total: number) => void,
  withCost = false,
) => engineClient().sweep(config, path, values, onProgress, withCost)

/** Run two configs and list the groups they decide differently about. */
export const requestCompare = (a: unknown, b: unknown) => engineClient().compare(a, b)

// The instant report is replaced on every load (not by the exact count): results computed on an
// earlier transcript are recognised by it and dropped.
const selectLoadedReport = (s: AppState) => s.report
/** Identity of the loaded transcript (changes on every load, not on a re-count). */
export const useLoadedReport = () => useAppStore(selectLoadedReport)
