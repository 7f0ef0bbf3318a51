import { useMemo, useState } from 'react'
import {
  CartesianGrid,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts'
import {
  currentWorkingConfig,
  setNumberAtPath,
  useConfigCatalog,
  useLabStore,
} from '../../../store/index.ts'
import { listNumericParams } from '../sweep/params.ts'
import { defaultRange, rangeValues } from '../sweep/range.ts'
import { usd } from './format.ts'
import { sweepPoints } from './studyModel.ts'
import { cancelStudy, runStudy, useStudyStore, type Variant } from './studyStore.ts'

const STEPS = 6

/** One parameter of the working config against the fleet's median/p90 savings, cost and risk. */
export function FleetSweep() {
  const lab = useLabStore()
  const config = currentWorkingConfig(lab)
  const model = useConfigCatalog()?.model
  const params = useMemo(() => listNumericParams(config, model), [config, model])
  const [path, setPath] = useState('')
  const param = params.find((p) => p.path === path) ?? params[0]
  const study = useStudyStore()
  const points = useMemo(
    () => (study.kind === 'sweep' ? sweepPoints(study.results) : []),
    [study.kind, study.results],
  )
  const start = () => {
    if (!param) return
    const values = rangeValues({ ...defaultRange(param), steps: STEPS }, param.integer)
    const variants: Variant[] = []
    for (const v of [...new Set(values)]) {
      const set = setNumberAtPath(config, param.path, v)
      if (set.ok) variants.push({ label: String(v), value: v, config: set.value })
    }
    runStudy('sweep', param.label, variants)
  }
  return (
    <div className="fleet-study">
      <div className="fleet-study-form">
        <label className="inline-field">
          <span className="field-label">Parameter</span>
          <select value={param?.path ?? ''} onChange={(e) => setPath(e.target.value)}>
            {params.map((p) => (
              <option key={p.path} value={p.path}>
                {p.label} (now {p.value})
              </option>
            ))}
          </select>
        </label>
        <button type="button" className="button primary" onClick={start} disabled={!param}>
          Sweep {STEPS} values over the fleet
        </button>
        {study.running ? (
          <>
            <span className="hint">
              {study.done} / {study.total} runs
            </span>
            <button type="button" className="button" onClick={cancelStudy}>
              Cancel
            </button>
          </>
        ) : null}
      </div>
      {points.length > 0 ? (
        <div className="fleet-study-body">
          <ResponsiveContainer width="100%" height={180}>
            <LineChart data={points} margin={{ top: 6, right: 12, bottom: 0, left: -10 }}>
              <CartesianGrid strokeDasharray="3 3" />
              <XAxis dataKey="label" tick={{ fontSize: 10 }} />
              <YAxis yAxisId="pct" unit="%" tick={{ fontSize: 10 }} />
              <YAxis
                yAxisId="risk"
                orientation="right"
                allowDecimals={false}
                tick={{ fontSize: 10 }}
              />
              <Tooltip isAnimationActive={false} />
              <Line
                yAxisId="pct"
                dataKey="median"
                name="median saved %"
                stroke="var(--accent)"
                isAnimationActive={false}
              />
              <Line
                yAxisId="pct"
                dataKey="p90"
                name="p90 saved %"
                stroke="var(--good)"
                isAnimationActive={false}
              />
              <Line
                yAxisId="risk"
                dataKey="usedLater"
                name="removed then used"
                stroke="var(--bad)"
                isAnimationActive={false}
              />
            </LineChart>
          </ResponsiveContainer>
          <table className="fleet-study-table">
            <thead>
              <tr>
                <th>{study.title}</th>
                <th>conversations</th>
                <th>median saved</th>
                <th>p90 saved</th>
                <th>cost after</th>
                <th>removed then used</th>
                <th>invariants violated</th>
              </tr>
            </thead>
            <tbody>
              {points.map((p) => (
                <tr key={p.label}>
                  <td>{p.label}</td>
                  <td>
                    {p.invalid ? (
                      <span className="bad">invalid: {p.invalid}</span>
                    ) : (
                      p.conversations
                    )}
                  </td>
                  <td>{p.median === null ? '–' : `${p.median} %`}</td>
                  <td>{p.p90 === null ? '–' : `${p.p90} %`}</td>
                  <td>{usd(p.costAfter)}</td>
                  <td>{p.usedLater}</td>
                  <td>{p.violations}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </div>
  )
}
