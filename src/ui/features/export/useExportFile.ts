/** The file the Export dialog shows for one choice, asked of the worker when the choice changes. */
import { useEffect, useState } from 'react'
import {
  ConfigInvalidError,
  isStale,
  requestExportConfig,
  requestExportReport,
  requestExportTranscript,
  type ConfigIssue,
  type CsvColumn,
  type ExportFile,
  type SideRequest,
} from '../../../store/index.ts'
import type { ExportChoice } from './exportChoices.ts'

export type ExportFileState =
  | { readonly kind: 'loading' }
  | { readonly kind: 'ready'; readonly file: ExportFile }
  | { readonly kind: 'error'; readonly message: string; readonly issues: readonly ConfigIssue[] }

function request(choice: ExportChoice, csvColumns: readonly CsvColumn[]): SideRequest<ExportFile> {
  switch (choice.kind) {
    case 'config':
      return requestExportConfig(choice.id)
    case 'transcript':
      return requestExportTranscript()
    case 'report':
      return choice.id === 'report-csv'
        ? requestExportReport('csv', csvColumns)
        : requestExportReport('json')
    default: {
      const never: never = choice
      return never
    }
  }
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
  const [state, setState] = useState<{
    readonly choice: ExportChoice | null
    readonly revision: unknown
    readonly csvColumns: readonly CsvColumn[] | null
    readonly value: ExportFileState
  }>({ choice: null, revision: null, csvColumns: null, value: { kind: 'loading' } })
  useEffect(() => {
    const req = request(choice, csvColumns)
    let live = true
    const settle = (value: ExportFileState) => {
      if (live) setState({ choice, revision, csvColumns, value })
    }
    req.promise.then(
      (file) => settle({ kind: 'ready', file }),
      (error: unknown) => {
        if (isStale(error)) return
        settle(
          error instanceof ConfigInvalidError
            ? { kind: 'error', message: 'The config is not valid:', issues: error.issues }
            : {
                kind: 'error',
                message: error instanceof Error ? error.message : String(error),
                issues: [],
              },
        )
      },
    )
    return () => {
      live = false
      req.cancel()
    }
  }, [choice, revision, csvColumns])
  // An answer for another choice or an older config is never shown as the current one.
  const current =
    state.choice === choice && state.revision === revision && state.csvColumns === csvColumns
  return current ? state.value : { kind: 'loading' }
}
