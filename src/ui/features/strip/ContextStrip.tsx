import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import {
  useDeferredRunSummary,
  useSelectedGroup,
  type RunView,
  useLabStore,
} from '../../../store/index.ts'
import { Section } from '../../components/Section.tsx'
import { formatCount } from '../../lib/format.ts'
import { TID } from '../../testids.ts'
import { Band, type StripMarker, type StripWindow } from './StripBand.tsx'
import {
  buildBand,
  createBandCache,
  stripScale,
  STRIP_UNITS,
  type StripSegment,
} from './stripModel.ts'

type BandCache = ReturnType<typeof createBandCache>
import { StripLegend } from './StripLegend.tsx'
import {
  clampView,
  FULL_VIEW,
  maxPan,
  panBy,
  upstreamX,
  zoomAround,
  type StripView,
} from './stripView.ts'
import './strip.css'

/** Pointer travel (px) under which a press on a segment is a click, not a drag. */
const DRAG_SLOP = 3

/**
 * `layout` again only when what it reads changed: the settled idempotence check replaces the
 * summary (new invariants) and keeps the groups, tokens, triggers and upstream markers.
 */
function createLayoutCache(reuse: BandCache) {
  let last: { key: readonly unknown[]; value: ReturnType<typeof layout> } | null = null
  return (summary: RunView, zoom: number) => {
    const key = [summary.groups, summary.tokens, summary.triggers, summary.upstream, zoom]
    if (last && key.every((part, i) => part === last?.key[i])) return last.value
    last = { key, value: layout(summary, zoom, reuse) }
    return last.value
  }
}

function layout(summary: RunView, zoom: number, reuse: BandCache) {
  const scale = stripScale(summary) / zoom
  const { usable, window, reservedOutput } = summary.tokens
  const win: StripWindow = {
    usableX: usable / scale,
    reservedX: (window - reservedOutput) / scale,
    windowX: window / scale,
  }
  // Segments equal to the last run's keep their objects: only the changed ones re-render.
  const before = reuse('before', buildBand(summary, 'before', scale))
  const after = reuse('after', buildBand(summary, 'after', scale))
  const kinds = [...new Set([...before.segments, ...after.segments].map((s) => s.kind))]
  const markers: StripMarker[] = [
    ...summary.triggers.map((t) => ({
      key: `trigger-${t.step}`,
      x: t.tokens / scale,
      title: `step ${t.step + 1} · ${t.strategy} fires over ${formatCount(t.tokens)} tokens`,
      testId: TID.stripTrigger,
      className: 'strip-trigger',
    })),
    ...summary.upstream.map((m, i) => ({
      key: `upstream-${i}`,
      x: upstreamX(summary, before, m.beforeIndex),
      title:
        `upstream compaction (${m.origin})` +
        (m.trigger ? ` · trigger: ${m.trigger}` : '') +
        (m.preTokens !== undefined ? ` · ${formatCount(m.preTokens)} tokens before` : ''),
      testId: TID.stripUpstream,
      className: 'strip-upstream',
    })),
  ]
  return { win, before, after, kinds, markers }
}

function ZoomControls(props: {
  readonly view: StripView
  readonly onView: (view: StripView) => void
}) {
  const { view, onView } = props
  const max = maxPan(view.zoom)
  return (
    <div className="strip-zoom" role="group" aria-label="Zoom and pan the strip">
      <button
        type="button"
        data-testid={TID.stripZoomOut}
        aria-label="Zoom out"
        disabled={view.zoom <= 1}
        onClick={() => onView(zoomAround(view, 0.5))}
      >
        −
      </button>
      <span className="strip-zoom-level num" aria-live="polite">
        ×{formatCount(view.zoom)}
      </span>
      <button
        type="button"
        data-testid={TID.stripZoomIn}
        aria-label="Zoom in"
        onClick={() => onView(zoomAround(view, 2))}
      >
        +
      </button>
      <button
        type="button"
        data-testid={TID.stripZoomReset}
        disabled={view.zoom <= 1}
        onClick={() => onView(FULL_VIEW)}
      >
        Fit
      </button>
      <input
        type="range"
        className="strip-pan"
        data-testid={TID.stripPan}
        aria-label="Pan the strip"
        min={0}
        max={Math.max(1, Math.round(max))}
        step={1}
        value={Math.round(view.pan)}
        disabled={max <= 0}
        onChange={(e) => onView(clampView({ ...view, pan: Number(e.target.value) }))}
      />
    </div>
  )
}

/**
 * Before and after as two aligned bands on one token scale: every group a segment as wide as its
 * tokens, coloured by kind. Click a segment to select its group; zoom with the buttons or
 * Ctrl+wheel, pan by dragging, Shift+wheel or the slider.
 */
export function ContextStrip() {
  const lab = useLabStore()
  const summary = useDeferredRunSummary()
  const selectedId = useSelectedGroup()
  const [view, setView] = useState<StripView>(FULL_VIEW)
  const [cached] = useState(() => createLayoutCache(createBandCache()))
  const data = useMemo(
    () => (summary ? cached(summary, view.zoom) : null),
    [summary, view.zoom, cached],
  )
  const selected = useMemo(
    () => (summary && selectedId !== null ? summary.groups.ids.indexOf(selectedId) : -1),
    [summary, selectedId],
  )
  const bandsRef = useRef<HTMLDivElement>(null)
  const drag = useRef<{ x: number; pan: number; moved: boolean } | null>(null)
  const suppressClick = useRef(false)
  const zoomRef = useRef(view.zoom)
  useEffect(() => {
    zoomRef.current = view.zoom
  }, [view.zoom])
  const hasData = data !== null

  const unitsPerPixel = () => {
    const svg = bandsRef.current?.querySelector('svg')
    return STRIP_UNITS / Math.max(1, svg?.clientWidth ?? STRIP_UNITS)
  }

  // Wheel: a native listener, since React's is passive and could not keep the page from scrolling.
  useEffect(() => {
    const el = bandsRef.current
    if (!el) return
    const onWheel = (e: WheelEvent) => {
      const svg = el.querySelector('svg')
      if (!svg) return
      const box = svg.getBoundingClientRect()
      if (e.ctrlKey || e.metaKey) {
        e.preventDefault()
        const anchor = Math.min(1, Math.max(0, (e.clientX - box.left) / Math.max(1, box.width)))
        setView((v) => zoomAround(v, e.deltaY < 0 ? 1.25 : 0.8, anchor))
      } else if (e.shiftKey || Math.abs(e.deltaX) > Math.abs(e.deltaY)) {
        // Unzoomed there is nothing to pan: let the page have the wheel.
        if (zoomRef.current <= 1) return
        e.preventDefault()
        const delta = (e.shiftKey ? e.deltaY : e.deltaX) * (STRIP_UNITS / Math.max(1, box.width))
        setView((v) => panBy(v, delta))
      }
    }
    el.addEventListener('wheel', onWheel, { passive: false })
    return () => el.removeEventListener('wheel', onWheel)
  }, [hasData])

  // Stable across runs (group ids are the conversation's, the same in every run): a new
  // callback per run would re-render every memoised segment.
  const onPick = useCallback(
    (seg: StripSegment) => {
      const state = lab.getState()
      const id = state.summary?.groups.ids[seg.index]
      if (suppressClick.current || id === undefined) return
      state.selectGroup(id)
    },
    [lab],
  )

  if (!summary || !data) return null
  return (
    <Section
      title="Context strip"
      testId={TID.contextStrip}
      className="context-strip"
      aside={<ZoomControls view={view} onView={setView} />}
    >
      <p className="hint strip-note">
        Each segment is one group, as wide as its tokens ({summary.groups.ids.length} groups,{' '}
        {summary.configName}; our count of the whole file, all threads and history — the context of
        a call is under Budget and Accounting). Segments under a pixel are merged. Click one to
        select it; Ctrl+wheel zooms, drag or Shift+wheel pans.
      </p>
      <div
        ref={bandsRef}
        className={view.zoom > 1 ? 'strip-bands zoomed' : 'strip-bands'}
        data-zoom={view.zoom}
        data-pan={view.pan}
        onPointerDown={(e) => {
          if (e.button !== 0) return
          suppressClick.current = false
          drag.current = { x: e.clientX, pan: view.pan, moved: false }
        }}
        onPointerMove={(e) => {
          const d = drag.current
          if (!d || view.zoom <= 1) return
          const dx = e.clientX - d.x
          if (!d.moved && Math.abs(dx) < DRAG_SLOP) return
          if (!d.moved) e.currentTarget.setPointerCapture(e.pointerId)
          d.moved = true
          setView((v) => clampView({ ...v, pan: d.pan - dx * unitsPerPixel() }))
        }}
        onPointerUp={() => {
          suppressClick.current = drag.current?.moved ?? false
          drag.current = null
        }}
        onPointerCancel={() => {
          drag.current = null
        }}
      >
        <Band
          side="before"
          band={data.before}
          win={data.win}
          view={view}
          selected={selected}
          markers={data.markers}
          onPick={onPick}
        />
        <Band
          side="after"
          band={data.after}
          win={data.win}
          view={view}
          selected={selected}
          markers={[]}
          onPick={onPick}
        />
      </div>
      <StripLegend
        kinds={data.kinds}
        hasTriggers={summary.triggers.length > 0}
        hasUpstream={summary.upstream.length > 0}
      />
    </Section>
  )
}
