import { useState } from 'react'
import { useConfigSource, useStatus } from '../../../store/index.ts'
import { Section } from '../../components/Section.tsx'
import { TID } from '../../testids.ts'
import { useCurrentConfig, usePresets } from '../sweep/usePresets.ts'
import { CompareSides } from './CompareSides.tsx'
import {
  choiceOptions,
  configOf,
  defaultB,
  isChoice,
  type ChoiceOption,
  type ConfigChoice,
} from './compareModel.ts'
import { DiffTable } from './DiffTable.tsx'
import { useCompare, type CompareStatus } from './useCompare.ts'
import './compare.css'

function ChoiceSelect(props: {
  readonly label: string
  readonly value: ConfigChoice
  readonly options: readonly ChoiceOption[]
  readonly testId: string
  readonly onChange: (value: ConfigChoice) => void
}) {
  return (
    <label className="inline-field">
      <span className="field-label">{props.label}</span>
      <select
        className="select"
        value={props.value}
        onChange={(e) => {
          if (isChoice(e.target.value)) props.onChange(e.target.value)
        }}
        data-testid={props.testId}
      >
        {props.options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </label>
  )
}

function Problem({ status }: { readonly status: CompareStatus }) {
  if (status.kind !== 'error') return null
  return (
    <div className="alert" role="alert" data-testid={TID.compareError}>
      <span className="alert-title">{status.message}</span>
      {status.issues.length > 0 ? (
        <ul className="problems">
          {status.issues.map((issue, i) => (
            <li key={i}>
              <code>{issue.path}</code> {issue.message}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  )
}

/** Two configs side by side on the loaded transcript, with the groups whose decisions differ. */
export function ComparePanel() {
  const loaded = useStatus() === 'loaded'
  const presets = usePresets()
  const working = useCurrentConfig()
  const { selectedPreset } = useConfigSource()
  const compare = useCompare()
  const [a, setA] = useState<ConfigChoice>('working')
  const [chosenB, setB] = useState<ConfigChoice | null>(null)

  if (!presets) {
    return (
      <Section title="Compare" testId={TID.compare} className="compare">
        <div className="empty">Loading the presets…</div>
      </Section>
    )
  }
  const b = chosenB ?? defaultB(presets, selectedPreset)
  const options = choiceOptions(presets)
  const labelOf = (c: ConfigChoice) => options.find((o) => o.value === c)?.label ?? c
  const configA = configOf(a, working, presets)
  const configB = configOf(b, working, presets)
  const running = compare.status.kind === 'running'
  const { result } = compare

  return (
    <Section title="Compare" testId={TID.compare} className="compare">
      <form
        className="compare-form"
        onSubmit={(e) => {
          e.preventDefault()
          if (configA === null || configB === null) return
          compare.run(configA, configB, { a: labelOf(a), b: labelOf(b) })
        }}
      >
        <ChoiceSelect label="A" value={a} options={options} testId={TID.compareA} onChange={setA} />
        <ChoiceSelect label="B" value={b} options={options} testId={TID.compareB} onChange={setB} />
        <button
          type="submit"
          className="button primary"
          disabled={!loaded || running || configA === null || configB === null}
          data-testid={TID.compareRun}
        >
          {running ? 'Comparing…' : 'Compare'}
        </button>
      </form>
      <Problem status={compare.status} />
      {result ? (
        <div className={running ? 'compare-result stale' : 'compare-result'}>
          <CompareSides a={result.a} b={result.b} labels={result.labels} />
          <DiffTable differing={result.differing} />
        </div>
      ) : null}
    </Section>
  )
}
