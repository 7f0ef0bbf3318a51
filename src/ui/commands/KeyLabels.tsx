import { Fragment } from 'react'
import { formatBinding } from './keys.ts'

/** A command's bindings as <kbd> chords: `g g or Home`. */
export function KeyLabels({
  keys,
  mac,
}: {
  readonly keys: readonly string[]
  readonly mac: boolean
}) {
  if (keys.length === 0) return <span className="cmd-nokey">—</span>
  return (
    <span className="cmd-keys">
      {keys.map((binding, i) => (
        <Fragment key={binding}>
          {i > 0 ? <span className="cmd-or"> or </span> : null}
          {formatBinding(binding, mac).map((chord, j) => (
            <Fragment key={j}>
              {j > 0 ? ' ' : null}
              <kbd>{chord}</kbd>
            </Fragment>
          ))}
        </Fragment>
      ))}
    </span>
  )
}
