/**
 * Zoom and pan of the context strip, and what lies where on a zoomed band (pure, no React).
 * The bands are laid out `zoom` times wider than the view; `pan` is the left edge of the view in
 * those zoomed units, so the SVG's viewBox is always `STRIP_UNITS` wide.
 */
import type { RunView } from '../../../store/index.ts'
import { STRIP_UNITS, type StripBand, type StripSegment } from './stripModel.ts'

export const MIN_ZOOM = 1
export const MAX_ZOOM = 256

export interface StripView {
  readonly zoom: number
  readonly pan: number
}

export const FULL_VIEW: StripView = { zoom: 1, pan: 0 }

/** The largest pan that still fills the view at `zoom`. */
export function maxPan(zoom: number): number {
  return Math.max(0, STRIP_UNITS * zoom - STRIP_UNITS)
}

export function clampView(view: StripView): StripView {
  const zoom = Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, view.zoom))
  const pan = Math.min(maxPan(zoom), Math.max(0, view.pan))
  return { zoom, pan }
}

/**
 * Zoom by `factor` keeping the point at `anchor` (0–1 across the view) where it is, as map
 * viewers do: wheel over a segment and it stays under the pointer.
 */
export function zoomAround(view: StripView, factor: number, anchor = 0.5): StripView {
  const zoom = Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, view.zoom * factor))
  const at = view.pan + anchor * STRIP_UNITS // zoomed units under the anchor
  const pan = (at / view.zoom) * zoom - anchor * STRIP_UNITS
  return clampView({ zoom, pan })
}

/** Pan by `delta` units of the view (positive moves right). */
export function panBy(view: StripView, delta: number): StripView {
  return clampView({ ...view, pan: view.pan + delta })
}

/** Segments that show in the view (a little margin so edges do not pop while panning). */
export function visibleSegments(band: StripBand, view: StripView): StripSegment[] {
  if (view.zoom <= 1) return band.segments
  const from = view.pan - 2
  const to = view.pan + STRIP_UNITS + 2
  return band.segments.filter((s) => s.x + s.width >= from && s.x <= to)
}

/** The segment standing for group `index` (a merged one when it was merged), or null. */
export function segmentOfGroup(band: StripBand, index: number): StripSegment | null {
  let lo = 0
  let hi = band.segments.length - 1
  while (lo <= hi) {
    const mid = (lo + hi) >> 1
    const seg = band.segments[mid]
    if (!seg) break
    if (seg.index < 0 || seg.index > index) hi = mid - 1
    else if (seg.last < index) lo = mid + 1
    else return seg
  }
  return null
}

/**
 * Where an upstream compaction sits on the before band: at the start of the first group whose
 * messages come at or after the message it precedes (the end of the groups when none does).
 */
export function upstreamX(summary: RunView, band: StripBand, beforeIndex: number): number {
  const { firstMessage } = summary.groups
  for (let g = 0; g < firstMessage.length; g++) {
    if ((firstMessage[g] ?? -1) >= beforeIndex) {
      const seg = segmentOfGroup(band, g)
      if (seg) return seg.x
    }
  }
  const lastGroup = band.segments.filter((s) => s.index >= 0).at(-1)
  return lastGroup ? lastGroup.x + lastGroup.width : 0
}
