import { useMemo, useState } from 'react'
import { aggregate } from '../../../fleet/aggregate.ts'
import { currentWorkingConfig, useAppStore, useLabStore } from '../../../store/index.ts'
import { pct, short, usd } from './format.ts'
import { compareRows } from './studyModel.ts'
import { cancelStudy, runStudy, useStudyStore } from './studyStore.ts'

/** The working config against another preset, fleet-wide, and the conversations they split on. */
export function FleetCompare() {
  const lab = useLabStore()
  const presets = useAppStore((s) => s.catalog?.presets ?? [])
  const selected = useAppStore((s) => s.selectedPreset)
  const [other, setOther] = useState('')
  const otherId = other || presets.find((p) => p.id !== selected)?.id || ''
  const study = useStudyStore()
  const [a, b] = study.kind === 'compare' ? study.results : []
  const rows = useMemo(() => (a && b ? compareRows(a.rows, b.rows) : []), [a, b])
  const aggA = useMemo(() => (a ? aggregate(a.rows, a.failed) : null), [a])
  const aggB = useMemo(() => (b ? aggregate(b.rows, b.failed) : null), [b])
  const start = () =>
    runStudy('compare', 'compare', [
      { label: 'this config', config: currentWorkingConfig(lab) },
      { label: otherId, config: null, preset: otherId },
    ])
  return (
    <div className="fleet-study">
      <div className="fleet-study-form">
        <label className="inline-field">
          <span className="field-label">Against</span>
          <select value={otherId} onChange={(e) => setOther(e.target.value)}>
            {presets.map((p) => (
              <option key={p.id} value={p.id}>
                {p.id}
              </option>
            ))}
          </select>
        </label>
        <button type="button" className="button primary" onClick={start} disabled={!otherId}>
          Compare over the fleet
        </button>
        {study.running && study.kind === 'compare' ? (
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
      {aggA && aggB && a && b ? (
        <div className="fleet-study-body">
          <table className="fleet-study-table">
            <thead>
              <tr>
                <th />
                <th>median saved</th>
                <th>p90 saved</th>
                <th>tokens after</th>
                <th>cost after</th>
                <th>removed then used</th>
                <th>invariants violated</th>
              </tr>
            </thead>
            <tbody>
              {[
                [a.variant.label, aggA],
                [b.variant.label, aggB],
              ].map(([label, g]) => {
                const x = g as typeof aggA
                return (
                  <tr key={label as string}>
                    <th>{label as string}</th>
                    <td>{pct(x.savedFraction.median)}</td>
                    <td>{pct(x.savedFraction.p90)}</td>
                    <td>{short(x.tokensAfter)}</td>
                    <td>{x.costAfter.count > 0 ? usd(x.costAfter.total) : '–'}</td>
                    <td>{x.usedLater}</td>
                    <td>{x.invariantsViolated}</td>
                  </tr>
                )
              })}
            </tbody>
          </table>
          <h3 className="fleet-study-title">Where they differ most</h3>
          <table className="fleet-study-table">
            <thead>
              <tr>
                <th>conversation</th>
                <th>saved: {a.variant.label}</th>
                <th>saved: {b.variant.label}</th>
                <th>Δ points</th>
                <th>removed then used</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.id}>
                  <td title={r.name}>{r.name}</td>
                  <td>{pct(r.a.tokens.last.savedFraction)}</td>
                  <td>{pct(r.b.tokens.last.savedFraction)}</td>
                  <td>{r.delta > 0 ? `+${r.delta}` : r.delta}</td>
                  <td>
                    {r.a.usedLater} → {r.b.usedLater}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </div>
  )
}
