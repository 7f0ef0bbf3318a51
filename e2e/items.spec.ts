import { tauBenchFile } from '../src/formats/items.testing.ts'
import { sweTextTrajectory } from '../src/formats/swe-agent/text-actions.testing.ts'
import { TID } from '../src/ui/testids.ts'
import { expect, test } from './fixtures.ts'
import { DetailPage } from './pages/DetailPage.ts'

/**
 * A file that holds many conversations: the import panel lists them (name, messages, tokens) and
 * opens any one, whose own figures then show. Our own generated tau-bench file: trajectory i has
 * 2 + i messages, so each item's count is its own.
 */
test.describe('multi-item files', () => {
  test('open item 5 of a tau-bench file from the picker and see its own counts', async ({
    app,
  }) => {
    await app.open()
    // The first visit loads a sample: let it finish so it cannot land after our file.
    await app.expectRun('recommended')
    await app.fileInput.setInputFiles({
      name: 'tau-results.json',
      mimeType: 'application/json',
      buffer: Buffer.from(tauBenchFile(12)),
    })
    await app.expectLoaded('openai-chat')
    const picker = app.page.getByTestId(TID.itemPicker)
    await expect(picker).toHaveAttribute('data-kind', 'tau-bench')
    const options = picker.getByTestId(TID.itemOption)
    await expect(options).toHaveCount(12)
    // The default load is the first trajectory: 2 messages.
    await expect(app.count('messages')).toHaveAttribute('data-value', '2')
    const five = options.and(app.page.locator('[data-index="5"]'))
    await expect(five).toContainText('task 5 · trial 0 · reward 1')
    await expect(five).toContainText('7 msg')
    await five.click()
    await expect(five).toHaveAttribute('aria-selected', 'true')
    await expect(app.count('messages')).toHaveAttribute('data-value', '7')
    await expect(picker).toContainText('item 5 is loaded')
  })

  test('the picker is searchable from the keyboard', async ({ app }) => {
    await app.open()
    // The first visit loads a sample: let it finish so it cannot land after our file.
    await app.expectRun('recommended')
    await app.fileInput.setInputFiles({
      name: 'tau-results.json',
      mimeType: 'application/json',
      buffer: Buffer.from(tauBenchFile(12)),
    })
    await app.expectLoaded('openai-chat')
    const search = app.page.getByTestId(TID.itemSearch)
    await search.fill('task 9')
    const options = app.page.getByTestId(TID.itemOption)
    await expect(options).toHaveCount(1)
    await search.press('Enter')
    await expect(app.count('messages')).toHaveAttribute('data-value', '11')
  })
})

test('a SWE-agent 0.x action shows as a tool call marked "from text"', async ({ app }) => {
  await app.open()
  await app.expectRun('recommended')
  await app.fileInput.setInputFiles({
    name: 'run.traj',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(sweTextTrajectory)),
  })
  await app.expectLoaded('swe-agent')
  await expect(app.count('tool-calls')).toHaveAttribute('data-value', '3')
  await expect(app.page.getByText('bash (from text)').first()).toBeVisible()
  // The drawer marks the call and its observation.
  const detail = new DetailPage(app.page)
  await detail.openRow(detail.rows.filter({ hasText: 'bash (from text)' }).first())
  await expect(detail.panel.getByTestId(TID.derivedBadge)).toHaveCount(2)
})
