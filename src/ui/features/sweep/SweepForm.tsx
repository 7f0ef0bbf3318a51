import type { FormEvent } from 'react'
import { TID } from '../../testids.ts'
import type { NumericParam } from './params.ts'
import { MAX_STEPS, MIN_STEPS } from './range.ts'
import { formatValue } from './sweepModel.ts'

/** The range as typed (strings, so a half-typed number is not fought by the input). */
export interface RangeDraft {
  readonly from: string
  readonly to: string
  readonly steps: string
}

interface FormProps {
  readonly params: readonly NumericParam[]
  readonly path: string
  readonly range: RangeDraft
  readonly running: boolean
  readonly disabled: boolean
  readonly onPath: (path: string) => void
  readonly onRange: (range: RangeDraft) => void
  readonly onRun: () => void
  readonly onCancel: () => void
  /** Price every point (cost axis); slower, each point replays the session. */
  readonly withCost: boolean
  readonly onWithCost: (on: boolean) => void
}

/** Which parameter, over which range, in how many steps; Run (or Cancel while running). */
export function SweepForm(props: FormProps) {
  const { params, path, range, running, disabled, onPath, onRange, onRun, onCancel } = props
  const { withCost, onWithCost } = props
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (!running && !disabled) onRun()
  }
  const field = (key: keyof RangeDraft, label: string, testId: string, extra = {}) => (
    <label className="inline-field">
      <span className="field-label">{label}</span>
      <input
        className="sweep-number"
        type="number"
        inputMode="decimal"
        value={range[key]}
        onChange={(e) => onRange({ ...range, [key]: e.target.value })}
        data-testid={testId}
        {...extra}
      />
    </label>
  )
  return (
    <form className="sweep-form" onSubmit={submit}>
      <label className="inline-field sweep-param">
        <span className="field-label">Parameter</span>
        <select
          className="select"
          value={path}
          onChange={(e) => onPath(e.target.value)}
          data-testid={TID.sweepParam}
        >
          {params.map((p) => (
            <option key={p.path} value={p.path}>
              {p.label} ({formatValue(p.value)})
            </option>
          ))}
        </select>
      </label>
      {field('from', 'From', TID.sweepFrom, { step: 'any' })}
      {field('to', 'To', TID.sweepTo, { step: 'any' })}
      {field('steps', 'Steps', TID.sweepSteps, { min: MIN_STEPS, max: MAX_STEPS, step: 1 })}
      <label className="inline-field" title="Each point replays the session call by call: slower">
        <input
          type="checkbox"
          checked={withCost}
          onChange={(e) => onWithCost(e.target.checked)}
          data-testid={TID.sweepWithCost}
        />
        <span className="field-label">Cost ($) axis</span>
      </label>
      {running ? (
        // Distinct keys: reusing one <button> would turn the clicked Cancel into a submit
        // before the click's default action, starting the sweep again.
        <button
          key="cancel"
          type="button"
          className="button"
          onClick={onCancel}
          data-testid={TID.sweepCancel}
        >
          Cancel
        </button>
      ) : (
        <button
          key="run"
          type="submit"
          className="button primary"
          disabled={disabled}
          data-testid={TID.sweepRun}
        >
          Run sweep
        </button>
      )}
    </form>
  )
}
