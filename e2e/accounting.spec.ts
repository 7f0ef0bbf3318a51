import { TID } from '../src/ui/testids.ts'
import { expect, test } from './fixtures.ts'
import { compactedClaudeSession } from './sessions.ts'

test.describe('per-call accounting', () => {
  test('a Claude Code session with a compact boundary: the headline is the timeline’s last point, the inferred prefix has its own category, a flagged call opens', async ({
    app,
  }) => {
    await app.open()
    await app.expectRun('recommended')
    await app.dropFile('compacted-session.jsonl', compactedClaudeSession())
    await app.expectLoaded('claude-code')
    await app.expectRun('recommended')
    await expect.poll(async () => (await app.runTotals()).before).toBeLessThan(60_000)

    // Figures say where they come from: fitted on the reported usage.
    const accounting = app.page.getByTestId(TID.reconciliation)
    await expect(accounting.getByTestId(TID.reconciliationSource)).toHaveAttribute(
      'data-source',
      'reconciled',
    )
    await expect(app.budgetHeadline).toHaveAttribute('data-source', 'reconciled')

    // The headline and the timeline's last point are one figure.
    const chart = app.page.getByTestId(TID.timelineChart)
    const now = chart.getByTestId(TID.timelineNow)
    await expect(now).toHaveCount(1)
    const { before, after } = await app.runTotals()
    await expect(now).toHaveAttribute('data-before', String(before))
    await expect(now).toHaveAttribute('data-after', String(after))
    // After the upstream compaction the context is small again: only what followed the boundary.
    expect(before).toBeLessThan(40_000)
    await expect(chart.getByTestId(TID.timelineUpstream)).toHaveCount(1)

    // The hidden prefix (system + tools not in the log) is a category of its own, labelled.
    const inferred = app.page.getByTestId(TID.budgetTable).locator('tr[data-category="inferred"]')
    await expect(inferred).toContainText('System + tools (inferred)')
    const prefix = Number(
      await accounting
        .getByTestId(TID.reconciliationPrefix)
        .getAttribute('placeholder')
        .then((p) => p?.replace(/\D/g, '')),
    )
    expect(prefix).toBeGreaterThan(12_000)
    expect(prefix).toBeLessThan(16_000)

    // The call whose reported figure is far off is flagged, on the chart and in the list, and opens.
    await expect(chart.getByTestId(TID.timelineFlagged)).toHaveCount(1)
    const flagged = accounting.getByTestId(TID.reconciliationFlagged)
    await expect(flagged).toContainText('1 call more than 10 %')
    // Accounting is in the overview; opening a call there shows it in the groups view's detail.
    await app.showView('overview')
    const button = flagged.locator('button[data-index]')
    const index = Number(await button.getAttribute('data-index'))
    await button.click()
    const drawer = app.page.getByTestId(TID.detailDrawer)
    await expect(drawer).toBeVisible()
    await expect(drawer).toHaveAttribute('data-state', 'ready')
    expect(index).toBeGreaterThan(0)
  })

  test('overriding the hidden prefix re-runs with the user’s figure and keeps it in the config', async ({
    app,
  }) => {
    await app.open()
    await app.expectRun('recommended')
    await app.dropFile('compacted-session.jsonl', compactedClaudeSession())
    await app.expectLoaded('claude-code')
    await app.expectRun('recommended')
    // The sample's run is on screen until the dropped session's own arrives (it is far smaller).
    await expect.poll(async () => (await app.runTotals()).before).toBeLessThan(60_000)
    const before = (await app.runTotals()).before
    const accounting = app.page.getByTestId(TID.reconciliation)
    await app.showView('overview')
    await accounting.getByTestId(TID.reconciliationPrefix).fill('50000')
    await accounting.getByTestId(TID.reconciliationPrefix).press('Enter')
    // The run with the user's prefix replaces the fitted one in the headline.
    await expect
      .poll(async () => (await app.runTotals()).before, { timeout: 15_000 })
      .toBeGreaterThan(before + 30_000)
    await expect(app.page.getByTestId(TID.configEditor)).toContainText('"prefixTokens": 50000')
  })
})
