import { useMemo, useState } from 'react'
import {
  getAtPath,
  setNumberAtPath,
  useConfigCatalog,
  useLabStore,
  useStatus,
} from '../../../store/index.ts'
import { Section } from '../../components/Section.tsx'
import { formatCount } from '../../lib/format.ts'
import { TID } from '../../testids.ts'
import { listNumericParams, type NumericParam } from './params.ts'
import { defaultRange, rangeValues } from './range.ts'
import { SweepChart } from './SweepChart.tsx'
import { SweepForm, type RangeDraft } from './SweepForm.tsx'
import { SweepPoints } from './SweepPoints.tsx'
import { formatValue, sweepFacts } from './sweepModel.ts'
import { useCurrentConfig } from './usePresets.ts'
import { useSweep, type SweepResult, type SweepStatus } from './useSweep.ts'
import './sweep.css'
import '../risk/risk.css'

function draftOf(p: NumericParam): RangeDraft {
  const r = defaultRange(p)
  return { from: String(r.from), to: String(r.to), steps: String(r.steps) }
}

function Progress({ status }: { readonly status: SweepStatus }) {
  if (status.kind === 'running') {
    const fraction = status.total > 0 ? status.done / status.total : 0
    return (
      <div className="sweep-status">
        <div
          className="progress sweep-progress"
          role="progressbar"
          aria-label="Sweeping"
          aria-valuemin={0}
          aria-valuemax={status.total}
          aria-valuenow={status.done}
          data-testid={TID.sweepProgress}
        >
          <div className="progress-fill" style={{ width: `${Math.max(0.04, fraction) * 100}%` }} />
        </div>
        <span className="hint">
          {status.done} of {status.total} values
        </span>
      </div>
    )
  }
  if (status.kind === 'error') {
    return (
      <div className="alert" role="alert" data-testid={TID.sweepError}>
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
  return null
}

function Caption({ result }: { readonly result: SweepResult }) {
  const facts = sweepFacts(result.points)
  return (
    <p className="hint">
      {result.label}: {facts.valid} values
      {facts.invalid > 0 ? `, ${facts.invalid} invalid` : ''}
      {facts.withViolations > 0 ? `, ${facts.withViolations} breaking invariants` : ''}
      {facts.best
        ? ` · fewest tokens without violations: ${formatCount(facts.best.after)} at ${formatValue(facts.best.value)}`
        : ''}{' '}
      · click a point to apply it
    </p>
  )
}

/** Sweep one numeric parameter of the working config over a range, and apply a point. */
export function SweepPanel() {
  const lab = useLabStore()
  const loaded = useStatus() === 'loaded'
  const config = useCurrentConfig()
  const model = useConfigCatalog()?.model
  const params = useMemo(() => listNumericParams(config, model), [config, model])
  const sweep = useSweep()
  const [withCost, setWithCost] = useState(false)
  const [chosen, setChosen] = useState<string | null>(null)
  const [draft, setDraft] = useState<{ path: string; range: RangeDraft } | null>(null)
  const [applyError, setApplyError] = useState<string | null>(null)

  const param = params.find((p) => p.path === chosen) ?? params[0] ?? null
  const range = param && draft?.path === param.path ? draft.range : param ? draftOf(param) : null
  const values =
    param && range
      ? rangeValues(
          { from: Number(range.from), to: Number(range.to), steps: Number(range.steps) },
          param.integer,
        )
      : []
  const result = sweep.result
  const currentValue = result ? getAtPath(config, result.path) : null
  const current = typeof currentValue === 'number' ? currentValue : null

  const apply = (value: number) => {
    if (!result) return
    const next = setNumberAtPath(config, result.path, value)
    if (!next.ok) {
      setApplyError(next.message)
      return
    }
    setApplyError(null)
    lab.getState().setConfig(next.value, { immediate: true })
  }

  return (
    <Section title="Sweep" testId={TID.sweep} className="sweep">
      {config === null ? (
        <div className="empty">Loading the presets…</div>
      ) : !param || !range ? (
        <div className="empty">This config has no numeric parameter to sweep.</div>
      ) : (
        <SweepForm
          params={params}
          path={param.path}
          range={range}
          running={sweep.status.kind === 'running'}
          disabled={!loaded || values.length === 0}
          onPath={(path) => setChosen(path)}
          onRange={(next) => setDraft({ path: param.path, range: next })}
          onRun={() => sweep.run(config, param.path, param.label, values, withCost)}
          onCancel={sweep.cancel}
          withCost={withCost}
          onWithCost={setWithCost}
        />
      )}
      <Progress status={sweep.status} />
      {applyError ? <p className="hint warn">{applyError}</p> : null}
      {result ? (
        <div className={sweep.status.kind === 'running' ? 'sweep-result stale' : 'sweep-result'}>
          <Caption result={result} />
          <figure
            className="sweep-figure"
            data-testid={TID.sweepChart}
            data-path={result.path}
            data-points={result.points.filter((p) => p.ok).length}
            aria-label={`Tokens after, tokens saved, removed-then-used tokens and invariant violations for ${result.label}`}
          >
            <SweepChart points={result.points} current={current} onApply={apply} />
          </figure>
          <div className="budget-key sweep-key" aria-hidden="true">
            <span>
              <i className="swatch sweep-swatch-after" /> tokens after
            </span>
            <span>
              <i className="swatch sweep-swatch-saved" /> tokens saved
            </span>
            <span>
              <i className="swatch sweep-swatch-removed-used" /> removed, then used later
            </span>
            <span>
              <i className="swatch sweep-swatch-violations" /> invariant violations (right axis)
            </span>
          </div>
          <SweepPoints points={result.points} current={current} onApply={apply} />
        </div>
      ) : null}
    </Section>
  )
}
