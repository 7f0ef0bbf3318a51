import { describe, expect, it } from 'vitest'
import { clampPanel, DEFAULT_PANEL_SIZES, PANEL_MIN, panelMax, parsePanelLayout } from './prefs.ts'

describe('panel sizes', () => {
  it('reads the stored layout and falls back on anything malformed', () => {
    const fallback = { sizes: DEFAULT_PANEL_SIZES, importCollapsed: false }
    expect(parsePanelLayout(null)).toEqual(fallback)
    expect(parsePanelLayout('not json')).toEqual(fallback)
    expect(parsePanelLayout('[1,2]')).toEqual(fallback)
    expect(
      parsePanelLayout('{"sizes":{"importColumn":512.4,"drawer":"wide"},"importCollapsed":true}'),
    ).toEqual({
      sizes: { importColumn: 512, drawer: DEFAULT_PANEL_SIZES.drawer },
      importCollapsed: true,
    })
  })

  it('clamps to the minimum and to what the viewport leaves', () => {
    expect(clampPanel('importColumn', 100, 1400)).toBe(PANEL_MIN.importColumn)
    expect(clampPanel('importColumn', 5000, 1400)).toBe(panelMax('importColumn', 1400))
    expect(clampPanel('drawer', 600.6, 1400)).toBe(601)
    expect(clampPanel('drawer', Number.NaN, 1400)).toBe(DEFAULT_PANEL_SIZES.drawer)
  })

  it('never lets the maximum fall below the minimum on a tiny screen', () => {
    expect(panelMax('drawer', 300)).toBe(PANEL_MIN.drawer)
    expect(clampPanel('drawer', 900, 300)).toBe(PANEL_MIN.drawer)
  })
})
