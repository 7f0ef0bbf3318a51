import { useId, useMemo } from 'react'
import { useRunSummary, type RunSummary } from '../../../store/index.ts'
import { Section } from '../../components/Section.tsx'
import { formatCount } from '../../lib/format.ts'
import { TID } from '../../testids.ts'
import {
  buildBand,
  describeSegment,
  stripScale,
  STRIP_UNITS,
  type StripBand,
  type StripSegment,
} from './stripModel.ts'

const BAND_HEIGHT = 28
const MARK_HEIGHT = 5

const KIND_LABELS: Record<string, string> = {
  system: 'system',
  user: 'user',
  assistant_text: 'assistant text',
  tool_call: 'tool call',
  summary: 'summary (in transcript)',
  summaries: 'inserted summaries',
  overhead: 'tools & framing',
  merged: 'tiny groups, merged',
}

/** Groups whose content was replaced by something shorter get a mark on top. */
const MARKED = new Set(['stubbed', 'trimmed', 'summarised'])

interface Window {
  readonly usableX: number
  readonly reservedX: number
  readonly windowX: number
}

function Segment({ seg, patternId }: { readonly seg: StripSegment; readonly patternId: string }) {
  const width = Math.max(seg.width, 0.5)
  const title = describeSegment(seg, formatCount)
  return (
    <g
      data-testid={TID.stripSegment}
      data-group={seg.index >= 0 ? seg.id : undefined}
      data-kind={seg.kind}
      data-status={seg.status}
      data-tokens={seg.tokens}
    >
      <title>{title}</title>
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
}

interface BandProps {
  readonly side: 'before' | 'after'
  readonly band: StripBand
  readonly win: Window
}

function Band({ side, band, win }: BandProps) {
  const patternId = `${useId().replace(/:/g, '')}-hatch`
  const label = side === 'before' ? 'Before' : 'After'
  const aria =
    `${label}: ${formatCount(band.total)} tokens in ${band.segments.length} segments` +
    (band.hidden > 0 ? `, ${band.hidden} groups left out` : '')
  return (
    <div className="strip-row">
      <span className="strip-row-label">{label}</span>
      <svg
        className="strip-band"
        viewBox={`0 0 ${STRIP_UNITS} ${BAND_HEIGHT}`}
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
        {band.segments.map((seg) => (
          <Segment key={`${seg.index}-${seg.id}`} seg={seg} patternId={patternId} />
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
      </svg>
      <span className="strip-row-total num">{formatCount(band.total)}</span>
    </div>
  )
}

function Legend({ kinds }: { readonly kinds: readonly string[] }) {
  return (
    <div className="strip-key" aria-hidden="true">
      {kinds.map((kind) => (
        <span key={kind}>
          <i className={`swatch strip-swatch strip-kind-${kind}`} /> {KIND_LABELS[kind] ?? kind}
        </span>
      ))}
      <span>
        <i className="swatch strip-swatch strip-swatch-excluded" /> excluded (hatched, before only)
      </span>
      <span>
        <i className="swatch strip-swatch strip-swatch-mark" /> stubbed / trimmed / summarised
      </span>
      <span>
        <i className="swatch seg-reserved" /> reserved output
      </span>
      <span>
        <i className="swatch edge" /> end of usable window
      </span>
    </div>
  )
}

function layout(summary: RunSummary) {
  const scale = stripScale(summary)
  const { usable, window, reservedOutput } = summary.tokens
  const win: Window = {
    usableX: usable / scale,
    reservedX: (window - reservedOutput) / scale,
    windowX: window / scale,
  }
  const before = buildBand(summary, 'before', scale)
  const after = buildBand(summary, 'after', scale)
  const kinds = [...new Set([...before.segments, ...after.segments].map((s) => s.kind))]
  return { win, before, after, kinds }
}

/**
 * Before and after as two aligned bands on one token scale: every group a segment as wide as its
 * tokens, coloured by kind; hover a segment for its name. Tokens outside any group (tools,
 * framing) form one segment; after a run, anything beyond that is shown as inserted summaries.
 */
export function ContextStrip() {
  const summary = useRunSummary()
  const data = useMemo(() => (summary ? layout(summary) : null), [summary])
  if (!summary || !data) return null
  return (
    <Section title="Context strip" testId={TID.contextStrip} className="context-strip">
      <p className="hint strip-note">
        Each segment is one group, as wide as its tokens ({summary.groups.ids.length} groups,{' '}
        {summary.configName}). Segments under a pixel are merged.
      </p>
      <Band side="before" band={data.before} win={data.win} />
      <Band side="after" band={data.after} win={data.win} />
      <Legend kinds={data.kinds} />
    </Section>
  )
}
