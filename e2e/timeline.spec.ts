import { TID } from '../src/ui/testids.ts'
import { expect, test } from './fixtures.ts'

test.describe('replay timeline', () => {
  test('anthropic-clear-tool-uses: original and compacted lines, fired markers, usable window', async ({
    app,
  }) => {
    await app.open()
    await app.expectExactTotal()
    await app.choosePreset('anthropic-clear-tool-uses')
    await app.expectRun('anthropic-clear-tool-uses')

    const chart = app.page.getByTestId(TID.timelineChart)
    await expect(chart.locator('svg.timeline-surface')).toBeVisible()
    await expect(chart.locator('.timeline-line-original path.timeline-line-curve')).toHaveCount(1)
    await expect(chart.locator('.timeline-line-compacted path.timeline-line-curve')).toHaveCount(1)
    expect(Number(await chart.getAttribute('data-calls'))).toBeGreaterThan(1)
    expect(Number(await chart.getAttribute('data-fired'))).toBeGreaterThan(0)
    expect(await chart.getByTestId(TID.timelineFired).count()).toBeGreaterThan(0)

    const usable = chart.getByTestId(TID.timelineUsable)
    await expect(usable).toHaveCount(1)
    await expect(usable).toContainText('usable window')
    const headlineUsable = await app.page.getByTestId(TID.budgetUsable).getAttribute('data-usable')
    await expect(usable).toHaveAttribute('data-usable', headlineUsable ?? '')
    await expect(chart).toHaveAttribute('aria-label', /model calls/)
  })

  test('hovering the chart shows the call with its before and after', async ({ app }) => {
    await app.open()
    await app.expectRun('recommended')
    const chart = app.page.getByTestId(TID.timelineChart)
    const surface = chart.locator('svg.timeline-surface')
    await expect(surface).toBeVisible()
    await surface.scrollIntoViewIfNeeded()
    const box = await surface.boundingBox()
    if (!box) throw new Error('no chart box')
    await surface.hover({ position: { x: box.width * 0.6, y: box.height / 2 } })
    const tooltip = app.page.getByTestId(TID.timelineTooltip)
    await expect(tooltip).toBeVisible()
    await expect(tooltip).toContainText(/Call \d/)
    await expect(tooltip).toContainText('original')
    await expect(tooltip).toContainText('compacted')
  })
})
