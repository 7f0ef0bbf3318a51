import { TID } from '../src/ui/testids.ts'
import { expect, test } from './fixtures.ts'

test.describe('context strip', () => {
  test('before and after bands of groups; the after band is narrower', async ({ app }) => {
    await app.open()
    await app.expectExactTotal()
    await app.expectRun('recommended')
    await app.choosePreset('anthropic-clear-tool-uses')
    await app.expectRun('anthropic-clear-tool-uses')
    await app.showView('overview')

    const strip = app.page.getByTestId(TID.contextStrip)
    const before = strip.getByTestId(TID.stripBefore)
    const after = strip.getByTestId(TID.stripAfter)
    await expect(before).toBeVisible()
    await expect(after).toBeVisible()
    expect(await before.getByTestId(TID.stripSegment).count()).toBeGreaterThan(10)
    expect(await after.getByTestId(TID.stripSegment).count()).toBeGreaterThan(0)

    const total = async (band: typeof before) => Number(await band.getAttribute('data-total'))
    const width = async (band: typeof before) => Number(await band.getAttribute('data-width'))
    expect(await total(after)).toBeLessThan(await total(before))
    expect(await width(after)).toBeLessThan(await width(before))
    // The band totals are the run's own totals (inserted summaries and overhead included).
    const totals = await app.runTotals()
    expect(await total(before)).toBeCloseTo(totals.before, 0)
    expect(await total(after)).toBeCloseTo(totals.after, 0)

    // The usable window and reserved output sit on the same scale in both bands.
    for (const band of [before, after]) {
      await expect(band.getByTestId(TID.stripUsable)).toHaveCount(1)
      await expect(band.getByTestId(TID.stripReserved)).toHaveCount(1)
    }
    const usableX = async (band: typeof before) =>
      band.getByTestId(TID.stripUsable).getAttribute('x1')
    expect(await usableX(after)).toBe(await usableX(before))

    // Hover names: every segment has a title naming the group, its tokens and status.
    const first = before.getByTestId(TID.stripSegment).first()
    await expect(first.locator('title')).toHaveText(/tokens/)
    // Some groups changed status under this preset (stubbed, trimmed or excluded).
    const changed = before.locator(
      '[data-status="excluded"], [data-status="stubbed"], [data-status="trimmed"]',
    )
    expect(await changed.count()).toBeGreaterThan(0)
  })
})
