/**
 * Export, config import and the share link: what the Export dialog asks the worker for (through
 * `useEngineRequest`), and the store fields it reads. The produced files are short-lived views of
 * one dialog, so they live in the dialog's request state rather than in a slice.
 */
import { useShallow } from 'zustand/react/shallow'
import { useAppStore } from './context.ts'
import type { AppState, LabStore } from './store.ts'
import { DEFAULT_URL_STATE, encodeUrlState } from './url.ts'

import type { ConfigExportTarget, Params } from '../worker/protocol.ts'

export type { ConfigExportTarget, ExportFile, ExportLanguage } from '../worker/protocol.ts'
export { CSV_COLUMNS, DEFAULT_CSV_COLUMNS, type CsvColumn } from '../worker/protocol.ts'
export type { LossyWarning, TargetId } from '../export/targets/types.ts'

const selectExportSource = (s: AppState) => ({
  selectedPreset: s.selectedPreset,
  customConfig: s.customConfig,
  hasRun: s.summary !== null,
})

/** What an export starts from: the preset (while unedited) or the edited config, and the run. */
export const useExportSource = () => useAppStore(useShallow(selectExportSource))

/**
 * What exporting the config on screen for `target` asks: the preset by id while it is unedited
 * (so the file is exactly the preset's), else the edited config.
 */
export function exportConfigParams(
  source: { readonly selectedPreset: string; readonly customConfig: unknown },
  target: ConfigExportTarget,
): Params<'exportConfig'> {
  return source.customConfig === null
    ? { config: null, target, preset: source.selectedPreset }
    : { config: source.customConfig, target }
}

/**
 * A link to this page that carries the config and nothing else: the preset id while it is
 * unedited, else the edited config compressed (deflate-raw, base64url) in the fragment — the
 * same codec the URL sync restores from. Filters, selection and transcript never go in.
 */
export async function shareLink(store: LabStore, base: string): Promise<string> {
  const { selectedPreset, customConfig } = store.getState()
  const fragment = await encodeUrlState({
    ...DEFAULT_URL_STATE,
    preset: selectedPreset,
    config: customConfig,
  })
  const url = new URL(base)
  // The preset is always named (the URL sync leaves the default out), so the link does not
  // depend on what the recipient's app would open by default.
  url.hash = fragment === '' ? `preset=${selectedPreset}` : fragment
  return url.href
}
