import { describe, expect, it } from 'vitest'
import type { RunView } from '../../../store/index.ts'
import { buildBand, createBandCache, STRIP_UNITS } from './stripModel.ts'
import {
  clampView,
  FULL_VIEW,
  maxPan,
  panBy,
  segmentOfGroup,
  upstreamX,
  visibleSegments,
  zoomAround,
} from './stripView.ts'

function summary(tokens: number[]): RunView {
  const n = tokens.length
  const total = tokens.reduce((a, b) => a + b, 0)
  return {
    tokens: {
      before: total,
      after: total,
      window: total,
      reservedOutput: 0,
      buffer: 0,
      usable: total,
    },
    groups: {
      ids: tokens.map((_, i) => `g${i}`),
      kinds: tokens.map(() => 'user'),
      status: tokens.map(() => 'kept'),
      tokensBefore: Float64Array.from(tokens),
      tokensAfter: Float64Array.from(tokens),
      roles: tokens.map(() => 'user'),
      tools: tokens.map(() => ''),
      resources: tokens.map(() => ''),
      turns: new Int32Array(n),
      firstMessage: Int32Array.from(tokens.map((_, i) => i * 2)),
      messageCounts: Int32Array.from(tokens.map(() => 2)),
    },
  } as unknown as RunView
}

describe('strip zoom and pan', () => {
  it('clamps zoom and pan to the band', () => {
    expect(clampView({ zoom: 0.5, pan: -10 })).toEqual(FULL_VIEW)
    expect(clampView({ zoom: 4, pan: 99999 })).toEqual({ zoom: 4, pan: maxPan(4) })
    expect(maxPan(1)).toBe(0)
    expect(maxPan(2)).toBe(STRIP_UNITS)
  })

  it('zooms around an anchor so the point under it stays put', () => {
    const v = zoomAround(FULL_VIEW, 2, 0.25)
    expect(v.zoom).toBe(2)
    // The point at 25% of the view (250 units at zoom 1) is at 500 zoomed units, still at 25%.
    expect(v.pan + 0.25 * STRIP_UNITS).toBeCloseTo(500)
    expect(zoomAround(v, 0.5, 0.25)).toEqual(FULL_VIEW)
    expect(zoomAround(FULL_VIEW, 1e6).zoom).toBe(256)
  })

  it('pans within the band', () => {
    const v = { zoom: 2, pan: 100 }
    expect(panBy(v, 50).pan).toBe(150)
    expect(panBy(v, -500).pan).toBe(0)
    expect(panBy(v, 5000).pan).toBe(maxPan(2))
  })
})

describe('what lies where on a band', () => {
  const s = summary([100, 100, 100, 100])
  const band = buildBand(s, 'before', 400 / STRIP_UNITS / 4) // zoom 4: each group 1000 units

  it('culls segments outside the view when zoomed', () => {
    expect(visibleSegments(band, FULL_VIEW)).toHaveLength(4)
    const shown = visibleSegments(band, { zoom: 4, pan: 1000 }).map((seg) => seg.index)
    expect(shown).toEqual([0, 1, 2])
    expect(visibleSegments(band, { zoom: 4, pan: 1500 }).map((seg) => seg.index)).toEqual([1, 2])
  })

  it('finds the segment of a group, merged or not', () => {
    expect(segmentOfGroup(band, 2)?.index).toBe(2)
    expect(segmentOfGroup(band, 9)).toBeNull()
    const tiny = buildBand(summary([1, 1, 1, 1000]), 'before', 4)
    const merged = segmentOfGroup(tiny, 1)
    expect(merged?.count).toBe(3)
    expect(merged?.index).toBe(0)
    expect(merged?.last).toBe(2)
    expect(segmentOfGroup(tiny, 3)?.index).toBe(3)
  })

  it('puts an upstream compaction at the first group after it', () => {
    expect(upstreamX(s, band, 4)).toBe(2000) // group 2 starts at message 4
    expect(upstreamX(s, band, 3)).toBe(2000)
    expect(upstreamX(s, band, 99)).toBe(4000)
  })
})

describe('segments kept from run to run', () => {
  it('keeps the objects of unchanged segments, and the band when nothing changed', () => {
    const reuse = createBandCache()
    const first = reuse('after', buildBand(summary([100, 200, 300]), 'after', 1))
    expect(reuse('after', buildBand(summary([100, 200, 300]), 'after', 1))).toBe(first)
    const next = reuse('after', buildBand(summary([100, 250, 300]), 'after', 1))
    expect(next).not.toBe(first)
    expect(next.segments[0]).toBe(first.segments[0])
    expect(next.segments[1]).not.toBe(first.segments[1])
    expect(next.segments[1]?.tokens).toBe(250)
    // Moved along by the wider group before it: a new object.
    expect(next.segments[2]).not.toBe(first.segments[2])
  })
})
