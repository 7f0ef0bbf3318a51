/** The file the Export dialog shows for one choice, asked of the worker when the choice changes. */
import { useMemo } from 'react'
import {
  exportConfigParams,
  useEngineRequest,
  useExportSource,
  type ConfigIssue,
  type CsvColumn,
  type EngineRequest,
  type ExportFile,
} from '../../../store/index.ts'
import type { ExportChoice } from './exportChoices.ts'

export type ExportFileState =
  | { readonly kind: 'loading' }
  | { readonly kind: 'ready'; readonly file: ExportFile }
  | { readonly kind: 'error'; readonly message: string; readonly issues: readonly ConfigIssue[] }

function stateOf(
  request: EngineRequest<'exportConfig' | 'exportTranscript' | 'exportReport'>,
): ExportFileState {
  const { state } = request
  if (state.status === 'done') return { kind: 'ready', file: state.reply }
  if (state.status !== 'error') return { kind: 'loading' }
  // A refused config lists its issues under one heading; other failures are their message.
  return state.issues.length > 0
    ? { kind: 'error', message: 'The config is not valid:', issues: state.issues }
    : { kind: 'error', message: state.message, issues: [] }
}

/**
 * `revision` changes whenever what the file is made from changes (config, run): the file is
 * asked for again then, so the preview never shows an export of an older config. `csvColumns`
 * (the decisions CSV's chosen columns) is a new array whenever the choice of columns changes.
 */
export function useExportFile(
  choice: ExportChoice,
  revision: unknown,
  csvColumns: readonly CsvColumn[],
): ExportFileState {
  const { selectedPreset, customConfig } = useExportSource()
  // One request per kind, only the chosen one asked (the others' params are null); they share
  // the export lane, so a newer choice makes an older request stale.
  const configParams = useMemo(
    () =>
      choice.kind === 'config'
        ? exportConfigParams({ selectedPreset, customConfig }, choice.id)
        : null,
    [choice, selectedPreset, customConfig],
  )
  const transcriptParams = useMemo(() => (choice.kind === 'transcript' ? {} : null), [choice])
  const reportParams = useMemo(
    () =>
      choice.kind !== 'report'
        ? null
        : choice.id === 'report-csv'
          ? { format: 'csv' as const, columns: csvColumns }
          : { format: 'json' as const },
    [choice, csvColumns],
  )
  const config = useEngineRequest('exportConfig', { auto: configParams, revision })
  const transcript = useEngineRequest('exportTranscript', { auto: transcriptParams, revision })
  const report = useEngineRequest('exportReport', { auto: reportParams, revision })
  switch (choice.kind) {
    case 'config':
      return stateOf(config)
    case 'transcript':
      return stateOf(transcript)
    case 'report':
      return stateOf(report)
    default: {
      const never: never = choice
      return never
    }
  }
}
