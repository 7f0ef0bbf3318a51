/**
 * The fleet's three small charts drawn as plain SVG. recharts measured every chart, ran its own
 * store and re-laid out its axes on each redraw: 60–320 ms main-thread tasks once a second while a
 * fleet ran. These draw from the same series (fleetModel.ts) in a few milliseconds: a fixed
 * viewBox scaled by the browser (no measuring), ten-odd bars or up to 2,000 dots, `<title>`
 * tooltips.
 */
import { memo } from 'react'
import type { Bin, ScatterPoint } from './fleetModel.ts'

const W = 320
const H = 150
const PAD = { left: 30, right: 6, top: 6, bottom: 22 }
const INNER_W = W - PAD.left - PAD.right
const INNER_H = H - PAD.top - PAD.bottom

const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 })

/** Up to five whole-number ticks from 0 to at least `max`. */
function countTicks(max: number): number[] {
  const step = Math.max(1, Math.ceil(max / 4))
  const top = Math.max(step, Math.ceil(max / step) * step)
  const out: number[] = []
  for (let t = 0; t <= top; t += step) out.push(t)
  return out
}

function Frame(props: { title: string; children: React.ReactNode }) {
  return (
    <figure className="fleet-chart">
      <figcaption>{props.title}</figcaption>
      <svg
        className="fleet-svg"
        viewBox={`0 0 ${W} ${H}`}
        width="100%"
        height={H}
        role="img"
        aria-label={props.title}
      >
        {props.children}
      </svg>
    </figure>
  )
}

function YGrid(props: { ticks: readonly number[]; y: (v: number) => number; unit?: string }) {
  return (
    <g className="fleet-svg-grid">
      {props.ticks.map((t) => (
        <g key={t}>
          <line x1={PAD.left} x2={W - PAD.right} y1={props.y(t)} y2={props.y(t)} />
          <text x={PAD.left - 4} y={props.y(t) + 3} textAnchor="end">
            {compact.format(t)}
            {props.unit ?? ''}
          </text>
        </g>
      ))}
    </g>
  )
}

/** A bar per bin (count of conversations), every `labelEvery`-th label shown. */
export const BinChart = memo(function BinChart(props: {
  title: string
  bins: readonly Bin[]
  fill: string
  labelEvery?: number
}) {
  const max = props.bins.reduce((m, b) => Math.max(m, b.count), 0)
  const ticks = countTicks(max)
  const top = ticks[ticks.length - 1] ?? 1
  const y = (v: number) => PAD.top + INNER_H - (v / top) * INNER_H
  const slot = INNER_W / Math.max(1, props.bins.length)
  const every = props.labelEvery ?? 1
  return (
    <Frame title={props.title}>
      <YGrid ticks={ticks} y={y} />
      {props.bins.map((b, k) => (
        <g key={b.label}>
          <rect
            x={PAD.left + k * slot + slot * 0.1}
            y={y(b.count)}
            width={slot * 0.8}
            height={Math.max(0, y(0) - y(b.count))}
            fill={props.fill}
          >
            <title>{`${b.label}: ${b.count} conversations`}</title>
          </rect>
          {k % every === 0 ? (
            <text
              className="fleet-svg-label"
              x={PAD.left + k * slot + slot / 2}
              y={H - 8}
              textAnchor="middle"
            >
              {b.label}
            </text>
          ) : null}
        </g>
      ))}
    </Frame>
  )
})

/** Size (log x) against saved % (0–100), one dot per conversation. */
export const SizeScatter = memo(function SizeScatter(props: {
  title: string
  points: readonly ScatterPoint[]
  fill: string
}) {
  let lo = Infinity
  let hi = 0
  for (const p of props.points) {
    lo = Math.min(lo, p.size)
    hi = Math.max(hi, p.size)
  }
  // Whole decades around the data, as a log axis with 'auto' bounds would show.
  const from = Number.isFinite(lo) ? Math.floor(Math.log10(lo)) : 0
  const to = Math.max(from + 1, hi > 0 ? Math.ceil(Math.log10(hi)) : 1)
  const x = (size: number) => PAD.left + ((Math.log10(size) - from) / (to - from)) * INNER_W
  const y = (saved: number) => PAD.top + INNER_H - (saved / 100) * INNER_H
  const decades: number[] = []
  for (let d = from; d <= to; d++) decades.push(d)
  return (
    <Frame title={props.title}>
      <YGrid ticks={[0, 25, 50, 75, 100]} y={y} unit="%" />
      {decades.map((d) => (
        <text key={d} className="fleet-svg-label" x={x(10 ** d)} y={H - 8} textAnchor="middle">
          {compact.format(10 ** d)}
        </text>
      ))}
      <g fill={props.fill} fillOpacity={0.7}>
        {props.points.map((p) => (
          <circle key={p.id} cx={x(p.size)} cy={y(p.saved)} r={2.5}>
            <title>{`${p.id}: ${compact.format(p.size)} tokens at the peak, saved ${p.saved} %`}</title>
          </circle>
        ))}
      </g>
    </Frame>
  )
})
