import type { SweepPoint } from '../../../store/index.ts'
import { formatCount } from '../../lib/format.ts'
import { TID } from '../../testids.ts'
import { formatValue } from './sweepModel.ts'

interface PointsProps {
  readonly points: readonly SweepPoint[]
  readonly current: number | null
  readonly onApply: (value: number) => void
}

/** The same points as the chart, as a table: exact figures, why a value is invalid, Apply. */
export function SweepPoints({ points, current, onApply }: PointsProps) {
  return (
    <details className="sweep-points">
      <summary className="hint">Points as a table</summary>
      <table className="sweep-table">
        <thead>
          <tr>
            <th>Value</th>
            <th className="num">After</th>
            <th className="num">Saved</th>
            <th className="num" title="Tokens removed that the agent used later">
              Removed, used later
            </th>
            <th className="num">Changes</th>
            <th className="num">Violations</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {points.map((p) => (
            <tr key={p.value} className={p.value === current ? 'current' : undefined}>
              <td>{formatValue(p.value)}</td>
              {p.ok ? (
                <>
                  <td className="num">{formatCount(p.after)}</td>
                  <td className="num">{formatCount(p.saved)}</td>
                  <td className={p.risk.tokens > 0 ? 'num warn' : 'num'}>
                    {formatCount(p.risk.tokens)}
                  </td>
                  <td className="num">{formatCount(p.changes)}</td>
                  <td className={p.violations > 0 ? 'num bad' : 'num'}>
                    {formatCount(p.violations)}
                  </td>
                </>
              ) : (
                <td colSpan={5} className="hint warn">
                  {p.error ?? 'invalid at this value'}
                </td>
              )}
              <td>
                <button
                  type="button"
                  className="button ghost"
                  disabled={!p.ok || p.value === current}
                  onClick={() => onApply(p.value)}
                  data-testid={TID.sweepApply}
                  data-value={p.value}
                >
                  {p.value === current ? 'current' : 'Apply'}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  )
}
