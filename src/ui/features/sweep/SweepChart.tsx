import {
  Bar,
  CartesianGrid,
  ComposedChart,
  Line,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts'
import type { SweepPoint } from '../../../store/index.ts'
import { formatCount } from '../../lib/format.ts'
import { TID } from '../../testids.ts'
import { chartRows, formatValue, type ChartRow } from './sweepModel.ts'

const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 })
const tickTokens = (value: number) => compact.format(value)

interface DotProps {
  readonly cx?: number
  readonly cy?: number
  readonly payload?: ChartRow
}

interface ChartProps {
  readonly points: readonly SweepPoint[]
  readonly current: number | null
  readonly onApply: (value: number) => void
}

interface TipProps {
  readonly active?: boolean
  readonly payload?: readonly { readonly payload?: ChartRow }[]
}

function SweepTooltip({ active, payload }: TipProps) {
  const row = payload?.[0]?.payload
  if (!active || !row) return null
  return (
    <div className="sweep-tooltip">
      <b>{formatValue(row.value)}</b>
      {row.after === null ? (
        <div className="hint">invalid at this value</div>
      ) : (
        <div>
          {formatCount(row.after)} after · {formatCount(row.saved ?? 0)} saved ·{' '}
          {formatCount(row.removedUsed ?? 0)} removed then used · {formatCount(row.violations ?? 0)}{' '}
          violations · click to apply
        </div>
      )}
    </div>
  )
}

/**
 * Tokens after, saved and removed-then-used (left axis) and failing invariants (bars, right axis) across the swept
 * values; the current value is a vertical line. Each point is a button-like dot: clicking it
 * applies that value to the working config.
 */
export function SweepChart({ points, current, onApply }: ChartProps) {
  const rows = chartRows(points)
  const priced = rows.some((r) => r.cost !== null)
  function pointDot({ cx, cy, payload }: DotProps) {
    if (!payload || payload.after === null || cx === undefined || cy === undefined) return <g />
    const apply = () => onApply(payload.value)
    return (
      <g
        className="sweep-dot"
        data-testid={TID.sweepPoint}
        data-value={payload.value}
        data-after={payload.after}
        onClick={apply}
      >
        <circle cx={cx} cy={cy} r={10} className="sweep-dot-hit" />
        <circle cx={cx} cy={cy} r={4} className="sweep-dot-mark" />
      </g>
    )
  }
  return (
    <ResponsiveContainer width="100%" height={240}>
      <ComposedChart data={rows} margin={{ top: 12, right: 8, bottom: 4, left: 4 }}>
        <CartesianGrid className="sweep-grid" vertical={false} />
        <XAxis
          dataKey="value"
          type="number"
          domain={['dataMin', 'dataMax']}
          tickFormatter={formatValue}
        />
        <YAxis yAxisId="tokens" tickFormatter={tickTokens} width={48} />
        <YAxis
          yAxisId="violations"
          orientation="right"
          allowDecimals={false}
          width={28}
          domain={[0, (max: number) => Math.max(1, max)]}
        />
        {priced ? (
          <YAxis
            yAxisId="cost"
            orientation="right"
            width={52}
            tickFormatter={(v: number) => `$${v >= 1 ? v.toFixed(2) : v.toFixed(3)}`}
          />
        ) : null}
        <Tooltip content={<SweepTooltip />} isAnimationActive={false} />
        {current !== null ? (
          <ReferenceLine
            x={current}
            yAxisId="tokens"
            ifOverflow="extendDomain"
            className="sweep-current"
            stroke="var(--muted)"
            strokeDasharray="4 3"
            label={{
              value: 'current',
              position: 'insideTopRight',
              className: 'sweep-current-label',
            }}
          />
        ) : null}
        <Bar
          yAxisId="violations"
          dataKey="violations"
          name="invariant violations"
          fill="var(--bad)"
          barSize={8}
          isAnimationActive={false}
        />
        <Line
          yAxisId="tokens"
          dataKey="saved"
          name="tokens saved"
          stroke="var(--good)"
          strokeWidth={1.5}
          dot={false}
          connectNulls={false}
          isAnimationActive={false}
        />
        {/* The risk beside the saving: tokens removed that the agent used later. */}
        <Line
          yAxisId="tokens"
          dataKey="removedUsed"
          name="removed then used"
          stroke="var(--warn)"
          strokeWidth={1.5}
          strokeDasharray="5 3"
          dot={false}
          connectNulls={false}
          isAnimationActive={false}
        />
        {priced ? (
          <Line
            yAxisId="cost"
            dataKey="cost"
            name="cost per session ($)"
            className="sweep-line-cost"
            stroke="var(--warn)"
            strokeWidth={1.5}
            strokeDasharray="5 3"
            dot={false}
            connectNulls={false}
            isAnimationActive={false}
          />
        ) : null}
        <Line
          yAxisId="tokens"
          dataKey="after"
          name="tokens after"
          stroke="var(--accent)"
          strokeWidth={2}
          dot={pointDot}
          activeDot={false}
          connectNulls={false}
          isAnimationActive={false}
        />
      </ComposedChart>
    </ResponsiveContainer>
  )
}
