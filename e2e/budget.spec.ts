import { expect, test } from './fixtures.ts'

test.describe('compaction budget', () => {
  test('the sample is compacted with the recommended preset once the exact count is in', async ({
    app,
  }) => {
    await app.open()
    await app.expectLoaded('claude-code')
    await app.expectExactTotal()
    await expect(app.presetPicker).toHaveValue('recommended')
    await app.expectRun('recommended')

    const { before, after } = await app.runTotals()
    expect(before).toBeGreaterThan(100_000)
    expect(after).toBeLessThanOrEqual(before)
    await expect(app.budgetHeadline).toContainText('→')
    await expect(app.budgetBarBefore).toHaveAttribute('aria-label', /usable tokens used/)
    await expect(app.budgetBarAfter).toHaveAttribute('aria-label', /reserved for output/)
    // The inferred hidden prefix, ten counted categories, stubs     await expect(app.budgetTable.locator('tbody tr')).toHaveCount(11) summaries.
    await expect(app.budgetTable.locator('tbody tr')).toHaveCount(12)
  })

  test('switching to anthropic-clear-tool-uses shrinks the context; reserved output stands apart', async ({
    app,
  }) => {
    await app.open()
    await app.expectExactTotal()
    await app.expectRun('recommended')

    await app.choosePreset('anthropic-clear-tool-uses')
    await app.expectRun('anthropic-clear-tool-uses')
    const { before, after } = await app.runTotals()
    expect(before).toBeGreaterThan(100_000)
    expect(after).toBeLessThan(before)
    await expect(app.budgetHeadline).toContainText('−')

    // Reserved output is its own segment (own test id), after the context, in both bars.
    for (const bar of ['before', 'after'] as const) {
      const reserved = app.reservedSegment(bar)
      await expect(reserved).toHaveCount(1)
      expect(Number(await reserved.getAttribute('data-tokens'))).toBeGreaterThan(0)
    }
    await expect(app.budgetBarAfter.locator('[data-category]').first()).toBeVisible()
    const afterUsed = Number(await app.budgetBarAfter.getAttribute('data-used'))
    const beforeUsed = Number(await app.budgetBarBefore.getAttribute('data-used'))
    expect(afterUsed).toBeLessThan(beforeUsed)
  })

  test('the preset select works from the keyboard', async ({ app }) => {
    await app.open()
    await app.expectRun('recommended')
    await app.presetPicker.focus()
    await app.page.keyboard.press('End')
    await expect(app.presetPicker).toHaveValue('anthropic-clear-tool-uses')
    await app.expectRun('anthropic-clear-tool-uses')
  })
})
