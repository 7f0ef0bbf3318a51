/**
 * Export, config import and the share link: the worker requests the Export dialog sends, and the
 * store fields it reads. The produced files are short-lived views of one dialog, so they live in
 * the dialog's own state rather than in a slice.
 */
import { useShallow } from 'zustand/react/shallow'
import { engineClient } from './engine.ts'
import { useAppStore, type AppState } from './store.ts'
import { DEFAULT_URL_STATE, encodeUrlState } from './url.ts'

import type { CsvColumn } from '../export/reports.ts'
import type { ConfigExportTarget } from '../worker/protocol.ts'

export type { ConfigExportTarget, ExportFile, ExportLanguage } from '../worker/protocol.ts'
export { CSV_COLUMNS, DEFAULT_CSV_COLUMNS, type CsvColumn } from '../export/reports.ts'
export type { LossyWarning, TargetId } from '../export/targets/types.ts'

const selectExportSource = (s: AppState) => ({
  selectedPreset: s.selectedPreset,
  customConfig: s.customConfig,
  hasRun: s.summary !== null,
})

/** What an export starts from: the preset (while unedited) or the edited config, and the run. */
export const useExportSource = () => useAppStore(useShallow(selectExportSource))

/**
 * Export the config on screen for `target`: the preset by id while it is unedited (so the file
 * is exactly the preset's), else the edited config. Rejects with `ConfigInvalidError`.
 */
export function requestExportConfig(target: ConfigExportTarget) {
  const { selectedPreset, customConfig } = useAppStore.getState()
  return customConfig === null
    ? engineClient().exportConfig(null, target, selectedPreset)
    : engineClient().exportConfig(customConfig, target)
}

/** The latest run's compacted transcript, in the loaded transcript's own format. */
export const requestExportTranscript = () => engineClient().exportTranscript()

/** The latest run's JSON report, or its decisions CSV with the chosen columns. */
export const requestExportReport = (format: 'json' | 'csv', columns?: readonly CsvColumn[]) =>
  engineClient().exportReport(format, columns)

/** Validate a config file's text in the worker; rejects with `ConfigInvalidError`. */
export const requestImportConfig = (text: string) => engineClient().importConfig(text)

/**
 * A link to this page that carries the config and nothing else: the preset id while it is
 * unedited, else the edited config compressed (deflate-raw, base64url) in the fragment — the
 * same codec the URL sync restores from. Filters, selection and transcript never go in.
 */
export async function shareLink(base: string): Promise<string> {
  const { selectedPreset, customConfig } = useAppStore.getState()
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
