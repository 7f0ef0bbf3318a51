import { TID } from '../src/ui/testids.ts'
import { expect, test } from './fixtures.ts'
import { DetailPage } from './pages/DetailPage.ts'
import { RISK, riskSession } from './risk-session.ts'

test.describe('removed content the agent used later', () => {
  test('a cleared grep result the agent relied on: the facts count it, its Why tab names what was used', async ({
    app,
  }) => {
    const detail = new DetailPage(app.page)
    await app.open()
    await app.expectRun('recommended')
    await app.dropFile('risk-session.json', riskSession())
    await app.expectLoaded('openai-chat')
    await app.expectExactTotal()
    await app.choosePreset('anthropic-clear-tool-uses')
    await app.expectRun('anthropic-clear-tool-uses')

    // The Compaction facts: one removed group was used later.
    const fact = app.compaction.getByTestId(TID.riskUsedLater)
    await expect(fact).toHaveAttribute('data-value', '1')
    await expect(fact).toContainText('1 removed group used later')
    expect(Number(await fact.getAttribute('data-tokens'))).toBeGreaterThan(10_000)

    // The grep is the oldest tool group: cleared first.
    const row = detail.rows.and(app.page.locator('[data-status="stubbed"]')).first()
    await detail.openRow(row)
    await detail.show('why')
    await expect(detail.usedLater).toBeVisible()
    await expect(detail.usedLaterEvidence).toHaveText([RISK.line, RISK.identifier, RISK.path])
    await expect(detail.usedLater).toContainText('The agent later used')
    await expect(detail.usedLater).toContainText('from this result, 5 calls later')
    await expect(detail.usedLater).toHaveAttribute('data-calls', '5')

    // A group the agent did not depend on has no warning.
    await detail.close.click()
    const kept = detail.rows.and(app.page.locator('[data-status="kept"]')).last()
    await detail.openRow(kept)
    await detail.show('why')
    await expect(detail.decisions.or(app.page.locator('.detail-why .hint')).first()).toBeVisible()
    await expect(detail.usedLater).toHaveCount(0)
  })
})
