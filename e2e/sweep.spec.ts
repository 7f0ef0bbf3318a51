import { TID } from '../src/ui/testids.ts'
import { expect, test } from './fixtures.ts'
import { SweepPage } from './pages/SweepPage.ts'

test.describe('sweep and compare', () => {
  test('sweeping the context window charts every value; a clicked point is applied', async ({
    app,
  }) => {
    const sweep = new SweepPage(app.page)
    await app.open()
    await app.expectExactTotal()
    await app.expectRun('recommended')
    const { after: recommendedAfter } = await app.runTotals()
    await app.showView('sweep')

    // Defaults bracket the current value (200k).
    await sweep.param.selectOption('window.contextTokens')
    await expect(sweep.from).toHaveValue('50000')
    await expect(sweep.to).toHaveValue('400000')

    await sweep.sweepOver('window.contextTokens', 50_000, 400_000, 8)
    await sweep.expectPoints('window.contextTokens', 8)

    // A small window compacts harder than a large one.
    const smallest = Number(await sweep.point(50_000).getAttribute('data-after'))
    const largest = Number(await sweep.point(400_000).getAttribute('data-after'))
    expect(smallest).toBeLessThan(largest)
    expect(smallest).toBeLessThan(recommendedAfter)

    // Clicking a point runs that config: the budget headline shows what the sweep predicted.
    await sweep.point(50_000).click()
    await expect(app.budgetHeadline).toHaveAttribute('data-after', String(smallest))
    await expect(app.runStatus).toHaveAttribute('data-status', 'done')
    await expect(sweep.budgetUsable).toHaveAttribute('data-usable', '30000')
  })

  test('a long sweep shows progress and can be cancelled', async ({ app }) => {
    const sweep = new SweepPage(app.page)
    await app.open()
    await app.expectExactTotal()
    await app.expectRun('recommended')
    // The replay follows the run; once drawn, the page above the sweep no longer moves.
    await expect(app.page.getByTestId(TID.timelineChart)).toBeVisible()
    await app.showView('sweep')
    // The most points the form allows, so the sweep is still running when Cancel is clicked.
    await sweep.sweepOver('window.contextTokens', 30_000, 400_000, 200)
    await expect(sweep.progress).toBeVisible()
    await sweep.cancel.click()
    await expect(sweep.progress).toHaveCount(0)
    await expect(sweep.run).toBeEnabled()
    await expect(sweep.chart).toHaveCount(0)
  })

  test('comparing two presets lists the groups they decide differently; a row selects its group', async ({
    app,
  }) => {
    const sweep = new SweepPage(app.page)
    await app.open()
    await app.expectExactTotal()
    await app.expectRun('recommended')
    await app.showView('compare')

    // The same config on both sides: nothing differs.
    await sweep.comparePresets('recommended', 'recommended')
    await expect(sweep.compareTable).toHaveAttribute('data-count', '0')

    await sweep.comparePresets('recommended', 'opencode')
    // Each side replays the session for its cost: wait for this comparison, not the last one.
    await expect
      .poll(async () => Number(await sweep.compareTable.getAttribute('data-count')))
      .toBeGreaterThan(0)
    const count = Number(await sweep.compareTable.getAttribute('data-count'))
    await expect(sweep.compareRows).toHaveCount(Math.min(count, 500))
    const a = Number(await sweep.side('a').getAttribute('data-after'))
    const b = Number(await sweep.side('b').getAttribute('data-after'))
    expect(b).toBeLessThan(a)

    const row = sweep.compareRows.first()
    const group = await row.getAttribute('data-group')
    expect(group).toBeTruthy()
    await row.click()
    await expect(row).toHaveAttribute('aria-selected', 'true')
    await expect(sweep.detailDrawer).toHaveAttribute('data-group', group ?? '')
    // Keyboard: Enter on another row selects that one instead.
    const second = sweep.compareRows.nth(1)
    await second.focus()
    await app.page.keyboard.press('Enter')
    await expect(second).toHaveAttribute('aria-selected', 'true')
    await expect(row).toHaveAttribute('aria-selected', 'false')
  })
})
