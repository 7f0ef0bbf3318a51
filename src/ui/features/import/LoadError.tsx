import { useLoadError, useSource } from '../../../store/index.ts'
import { Problem } from '../../components/Problem.tsx'
import { TID } from '../../testids.ts'

/** The reason a load failed, next to the paste box that still holds the text. */
export function LoadError() {
  const error = useLoadError()
  const { origin } = useSource()
  if (!error) return null
  return (
    <div className="alert" role="alert" data-testid={TID.loadError} data-line={error.line}>
      <strong className="alert-title">Could not load this transcript</strong>
      <div className="problem">
        <Problem problem={error} />
      </div>
      {origin === 'paste' ? (
        <div className="hint">Your text is still in the box above: fix it and load again.</div>
      ) : null}
    </div>
  )
}
