import { useLoadError, useReport, useSource } from '../../../store/index.ts'
import { Problem } from '../../components/Problem.tsx'
import { TID } from '../../testids.ts'

/**
 * The reason a load failed: in the sidebar next to the paste box that still holds the text, or —
 * when an analysis is on screen — above it in the main area (`placement="main"`), saying that
 * the analysis shown is still the previous transcript's.
 */
export function LoadError({ placement = 'sidebar' }: { readonly placement?: 'sidebar' | 'main' }) {
  const error = useLoadError()
  const { origin, fileName } = useSource()
  const { report } = useReport()
  if (!error || (placement === 'main') !== (report !== null)) return null
  return (
    <div
      className={placement === 'main' ? 'alert load-error-main' : 'alert'}
      role="alert"
      data-testid={TID.loadError}
      data-line={error.line}
      data-kept={report !== null}
    >
      <strong className="alert-title">Could not load this transcript</strong>
      <div className="problem">
        <Problem problem={error} />
      </div>
      {report ? (
        <div className="hint">
          Nothing was replaced: still showing the analysis of {fileName ?? 'the pasted text'}.
        </div>
      ) : origin === 'paste' ? (
        <div className="hint">Your text is still in the box above: fix it and load again.</div>
      ) : null}
    </div>
  )
}
