import { describe, expect, it } from 'vitest'
import {
  clampPanel,
  DEFAULT_PANEL_LAYOUT,
  DEFAULT_PANEL_SIZES,
  PANEL_MIN,
  panelMax,
  parsePanelLayout,
  readPanelLayout,
} from './prefs.ts'

describe('panel sizes', () => {
  it('reads the stored layout and falls back on anything malformed', () => {
    const fallback = DEFAULT_PANEL_LAYOUT
    expect(parsePanelLayout(null)).toEqual(fallback)
    expect(parsePanelLayout('not json')).toEqual(fallback)
    expect(parsePanelLayout('[1,2]')).toEqual(fallback)
    expect(
      parsePanelLayout(
        '{"sizes":{"importColumn":512.4,"drawer":"wide","timeline":200},"importCollapsed":true,"budgetExpanded":1}',
      ),
    ).toEqual({
      sizes: { importColumn: 512, drawer: DEFAULT_PANEL_SIZES.drawer, timeline: 200 },
      importCollapsed: true,
      budgetExpanded: false,
      timelineCollapsed: false,
    })
  })

  it('reads v2 when there is one, else keeps only the collapsed flag of a v1 layout', () => {
    const v1 = '{"sizes":{"importColumn":600,"drawer":700},"importCollapsed":true}'
    expect(readPanelLayout(null, v1)).toEqual({ ...DEFAULT_PANEL_LAYOUT, importCollapsed: true })
    expect(readPanelLayout(null, null)).toEqual(DEFAULT_PANEL_LAYOUT)
    expect(readPanelLayout('{"timelineCollapsed":true}', v1)).toEqual({
      ...DEFAULT_PANEL_LAYOUT,
      timelineCollapsed: true,
    })
  })

  it('clamps to the minimum and to what the viewport leaves', () => {
    expect(clampPanel('importColumn', 100, 1400)).toBe(PANEL_MIN.importColumn)
    expect(clampPanel('importColumn', 5000, 1400)).toBe(panelMax('importColumn', 1400))
    expect(clampPanel('drawer', 600.6, 1400)).toBe(601)
    expect(clampPanel('timeline', 1000, 900)).toBe(900 - 430)
    expect(clampPanel('drawer', Number.NaN, 1400)).toBe(DEFAULT_PANEL_SIZES.drawer)
  })

  it('never lets the maximum fall below the minimum on a tiny screen', () => {
    expect(panelMax('drawer', 300)).toBe(PANEL_MIN.drawer)
    expect(clampPanel('drawer', 900, 300)).toBe(PANEL_MIN.drawer)
  })
})
