import { memo, useId } from 'react'
import { formatCount } from '../../lib/format.ts'
import { TID } from '../../testids.ts'
import { describeSegment, STRIP_UNITS, type StripBand, type StripSegment } from './stripModel.ts'
import { segmentOfGroup, visibleSegments, type StripView } from './stripView.ts'

export const BAND_HEIGHT = 28
const MARK_HEIGHT = 5

/** Groups whose content was replaced by something shorter get a mark on top. */
const MARKED = new Set(['stubbed', 'trimmed', 'summarised'])

export interface StripWindow {
  readonly usableX: number
  readonly reservedX: number
  readonly windowX: number
}

/** A vertical line drawn across a band, with a hover text (trigger levels, upstream compactions). */
export interface StripMarker {
  readonly key: string
  readonly x: number
  readonly title: string
  readonly testId: string
  readonly className: string
}

const Segment = memo(function Segment(props: {
  readonly seg: StripSegment
  readonly patternId: string
  readonly onPick: (seg: StripSegment) => void
}) {
  const { seg, patternId, onPick } = props
  const width = Math.max(seg.width, 0.5)
  const title = describeSegment(seg, formatCount)
  return (
    <g
      data-testid={TID.stripSegment}
      data-group={seg.index >= 0 && seg.count === 1 ? seg.id : undefined}
      data-index={seg.index}
      data-kind={seg.kind}
      data-status={seg.status}
      data-tokens={seg.tokens}
      className={seg.index >= 0 ? 'strip-pickable' : undefined}
      onClick={seg.index >= 0 ? () => onPick(seg) : undefined}
    >
      <title>{seg.index >= 0 ? `${title} — click to select` : title}</title>
      <rect
        className={`strip-seg strip-kind-${seg.kind} strip-status-${seg.status}`}
        x={seg.x}
        y={0}
        width={width}
        height={BAND_HEIGHT}
      />
      {seg.status === 'excluded' ? (
        <rect x={seg.x} y={0} width={width} height={BAND_HEIGHT} fill={`url(#${patternId})`} />
      ) : null}
      {MARKED.has(seg.status) ? (
        <rect
          className="strip-mark"
          x={seg.x}
          y={0}
          width={Math.max(width, 2)}
          height={MARK_HEIGHT}
        />
      ) : null}
    </g>
  )
})

interface BandProps {
  readonly side: 'before' | 'after'
  readonly band: StripBand
  readonly win: StripWindow
  readonly view: StripView
  /** Index of the selected group (−1 when none). */
  readonly selected: number
  readonly markers: readonly StripMarker[]
  readonly onPick: (seg: StripSegment) => void
}

/** One band: its segments (only those in view when zoomed), window lines, markers, selection. */
export function Band({ side, band, win, view, selected, markers, onPick }: BandProps) {
  const patternId = `${useId().replace(/:/g, '')}-hatch`
  const label = side === 'before' ? 'Before' : 'After'
  const aria =
    `${label}: ${formatCount(band.total)} tokens in ${band.segments.length} segments` +
    (band.hidden > 0 ? `, ${band.hidden} groups left out` : '')
  const chosen = selected >= 0 ? segmentOfGroup(band, selected) : null
  return (
    <div className="strip-row">
      <span className="strip-row-label">{label}</span>
      <svg
        className="strip-band"
        viewBox={`${view.pan} 0 ${STRIP_UNITS} ${BAND_HEIGHT}`}
        preserveAspectRatio="none"
        role="img"
        aria-label={aria}
        data-testid={side === 'before' ? TID.stripBefore : TID.stripAfter}
        data-total={band.total}
        data-width={band.segments.reduce((w, s) => w + s.width, 0)}
        data-hidden={band.hidden}
      >
        <defs>
          <pattern id={patternId} width="4" height="4" patternUnits="userSpaceOnUse">
            <path d="M0 4 L4 0" className="strip-hatch-line" />
          </pattern>
        </defs>
        <rect
          className="strip-reserved"
          data-testid={TID.stripReserved}
          x={win.reservedX}
          y={0}
          width={Math.max(0, win.windowX - win.reservedX)}
          height={BAND_HEIGHT}
        >
          <title>reserved output (set aside, not used)</title>
        </rect>
        <rect
          x={win.reservedX}
          y={0}
          width={Math.max(0, win.windowX - win.reservedX)}
          height={BAND_HEIGHT}
          fill={`url(#${patternId})`}
          aria-hidden="true"
        />
        {visibleSegments(band, view).map((seg) => (
          <Segment key={`${seg.index}-${seg.id}`} seg={seg} patternId={patternId} onPick={onPick} />
        ))}
        <line
          className="strip-usable"
          data-testid={TID.stripUsable}
          x1={win.usableX}
          x2={win.usableX}
          y1={0}
          y2={BAND_HEIGHT}
          vectorEffect="non-scaling-stroke"
        />
        {markers.map((m) => (
          <g key={m.key} className={m.className} data-testid={m.testId} data-x={m.x}>
            <title>{m.title}</title>
            <line x1={m.x} x2={m.x} y1={0} y2={BAND_HEIGHT} vectorEffect="non-scaling-stroke" />
          </g>
        ))}
        {chosen ? (
          <rect
            className="strip-selected"
            data-testid={TID.stripSelected}
            data-index={selected}
            x={chosen.x}
            y={0.75}
            width={Math.max(chosen.width, 0.5)}
            height={BAND_HEIGHT - 1.5}
            vectorEffect="non-scaling-stroke"
          />
        ) : null}
      </svg>
      <span className="strip-row-total num" title="our count of every group in the file">
        {formatCount(band.total)}
      </span>
    </div>
  )
}
