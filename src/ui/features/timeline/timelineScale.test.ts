import { describe, expect, it } from 'vitest'
import {
  linearScale,
  nearestIndex,
  placeLineLabels,
  seriesPath,
  spacedMarkers,
  tickCount,
  timelineLayout,
  xTicks,
  yTicks,
} from './timelineScale.ts'

describe('timeline scale', () => {
  it('rounds the y axis up to a tick of a round step', () => {
    expect(yTicks(105_000)).toEqual({
      max: 120_000,
      ticks: [0, 20_000, 40_000, 60_000, 80_000, 100_000, 120_000],
    })
    expect(yTicks(105_000, 2)).toEqual({ max: 150_000, ticks: [0, 50_000, 100_000, 150_000] })
    expect(yTicks(0.33, 3)).toEqual({ max: 0.4, ticks: [0, 0.1, 0.2, 0.3, 0.4] })
    expect(yTicks(0.33).max).toBe(0.35)
    expect(yTicks(0).ticks).toEqual([0, 1])
  })

  it('puts integer call ticks inside the domain', () => {
    expect(xTicks(1, 801)).toEqual([200, 400, 600, 800])
    expect(xTicks(1, 4)).toEqual([1, 2, 3, 4])
    expect(xTicks(3, 3)).toEqual([3])
  })

  it('maps values to pixels and back', () => {
    const x = linearScale(1, 11, 52, 152)
    expect(x(1)).toBe(52)
    expect(x(11)).toBe(152)
    expect(x.invert(102)).toBe(6)
  })

  it('lays out the plot, the x axis and the brush in the box', () => {
    const layout = timelineLayout(600, 200, true)
    expect(layout).toMatchObject({ left: 52, right: 584, top: 12, brushTop: 172, bottom: 142 })
    expect(timelineLayout(600, 200, false).bottom).toBe(166)
  })

  it('keeps only the lowest and highest point of each pixel column, in order', () => {
    const xs = [0, 1, 2, 3, 10]
    const ys = [5, 9, 1, 4, 7]
    // Columns: 0..3 all fall on pixel 0 (scale 0.1); 10 on pixel 1.
    const d = seriesPath(
      xs,
      ys,
      (v) => v / 10,
      (v) => v,
    )
    expect(d).toBe('M0.1,9L0.2,1L1,7')
  })

  it('breaks the line at a missing value', () => {
    const d = seriesPath(
      [0, 1, 2, 3],
      [1, null, 2, 3],
      (v) => v * 10,
      (v) => v,
    )
    expect(d).toBe('M0,1M20,2L30,3')
  })

  it('finds the nearest call', () => {
    const calls = [1, 4, 9, 10]
    expect(nearestIndex(calls, 0)).toBe(0)
    expect(nearestIndex(calls, 2.4)).toBe(0)
    expect(nearestIndex(calls, 2.6)).toBe(1)
    expect(nearestIndex(calls, 9.6)).toBe(3)
    expect(nearestIndex(calls, 99)).toBe(3)
    expect(nearestIndex([], 1)).toBe(-1)
  })

  it('fits one axis interval per spacing, within bounds', () => {
    expect(tickCount(100, 22, 5)).toBe(4)
    expect(tickCount(30, 22, 5)).toBe(2)
    expect(tickCount(2000, 90, 10)).toBe(10)
  })

  it('spaces markers by pixels, keeping the first of each slot', () => {
    expect(spacedMarkers([0, 1, 2, 5, 6, 12], (v) => v, 4)).toEqual([0, 5, 12])
  })
})

describe('trigger line labels', () => {
  it('keeps long labels for lines far apart', () => {
    expect(placeLineLabels([100, 60, 20], [15, 15, 15], 48)).toEqual([
      { x: 48, short: false },
      { x: 48, short: false },
      { x: 48, short: false },
    ])
  })

  it('puts the labels of crowded lines side by side, lowest line first', () => {
    // Pixel heights: 30 and 40 are within a label of each other and of 50; 100 is alone.
    const places = placeLineLabels([40, 100, 30, 50], [10, 10, 12, 10], 48)
    expect(places[1]).toEqual({ x: 48, short: false })
    expect(places[3]).toEqual({ x: 48, short: true })
    expect(places[0]).toEqual({ x: 48 + 10 * 6 + 10, short: true })
    expect(places[2]).toEqual({ x: 48 + 2 * (10 * 6 + 10), short: true })
  })
})
