import { TID } from '../src/ui/testids.ts'
import { expect, test } from './fixtures.ts'

test.describe('cost', () => {
  test('the headline shows the session cost before → after, and the timeline has a cost mode with cache re-writes', async ({
    app,
  }) => {
    await app.open()
    await app.expectExactTotal()
    await app.choosePreset('anthropic-clear-tool-uses')
    await app.expectRun('anthropic-clear-tool-uses')

    const cost = app.page.getByTestId(TID.budgetCost)
    await expect(cost).toHaveAttribute('data-state', 'ready')
    const before = Number(await cost.getAttribute('data-before'))
    const after = Number(await cost.getAttribute('data-after'))
    expect(before).toBeGreaterThan(0)
    expect(after).toBeGreaterThan(0)
    await expect(cost).toContainText('→')
    await expect(cost).toContainText('$')

    const chart = app.page.getByTestId(TID.timelineChart)
    await app.page.getByTestId(TID.timelineMode).locator('[data-mode="cost"]').click()
    await expect(chart).toHaveAttribute('data-mode', 'cost')
    await expect(chart.locator('.timeline-line-original path.timeline-line-curve')).toHaveCount(1)
    await expect(chart.locator('.timeline-line-compacted path.timeline-line-curve')).toHaveCount(1)
    // Clearing tool results rewrites the cached prompt after them: marked where it happened.
    expect(await chart.getByTestId(TID.timelineRewrite).count()).toBeGreaterThan(0)
    // The y axis speaks dollars.
    await expect(chart.locator('text').filter({ hasText: /^\$\d/ }).first()).toBeVisible()

    // Back to tokens: the usable window line returns.
    await app.page.getByTestId(TID.timelineMode).locator('[data-mode="tokens"]').click()
    await expect(chart.getByTestId(TID.timelineUsable)).toHaveCount(1)
  })

  test('a price entered under Accounting re-prices the session and is kept in the config', async ({
    app,
  }) => {
    await app.open()
    await app.expectRun('recommended')
    const cost = app.page.getByTestId(TID.budgetCost)
    await expect(cost).toHaveAttribute('data-state', 'ready')
    const before = Number(await cost.getAttribute('data-before'))
    const form = app.page.getByTestId(TID.priceForm)
    await app.showView('overview')
    await form.locator('[data-field="cacheRead"]').fill('3')
    await form.getByRole('button', { name: 'Apply prices' }).click()
    await expect(cost).not.toHaveAttribute('data-before', String(before))
    await expect(cost).toHaveAttribute('data-state', 'ready')
    expect(Number(await cost.getAttribute('data-before'))).toBeGreaterThan(before)
    await expect(app.page.getByTestId(TID.configEditor)).toContainText('"cacheRead": 3')
  })
})
