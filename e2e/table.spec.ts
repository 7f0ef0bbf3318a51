import { expect, test } from './fixtures.ts'
import { GroupTableSection } from './pages/AppPage.ts'
import { TablePage } from './pages/TablePage.ts'

test.describe('grouped table', () => {
  test('shows one virtualised row per group, filterable by status', async ({ app }) => {
    const table = new GroupTableSection(app.page)
    await app.open()
    await app.expectExactTotal()
    await app.expectRun('recommended')
    await app.choosePreset('anthropic-clear-tool-uses')
    await app.expectRun('anthropic-clear-tool-uses')

    const rows = table.rows
    await expect(rows.first()).toBeVisible()

    // "All" counts every group of the run, as the counts grid states them.
    const all = await table.filterCount('all')
    expect(all).toBe(await app.countValue('groups'))
    expect(all).toBeGreaterThan(100)
    await expect(table.scroll).toHaveAttribute('data-rows', String(all))

    // Virtualised: far fewer rows in the DOM than groups, also after scrolling to the end.
    expect(await rows.count()).toBeLessThan(100)
    await table.scroll.evaluate((el) => el.scrollTo(0, el.scrollHeight))
    await expect(rows.last()).toHaveAttribute('data-group', /.+/)
    expect(await rows.count()).toBeLessThan(100)

    // The Stubbed chip leaves only stubbed rows.
    const stubbed = await table.filterCount('stubbed')
    expect(stubbed).toBeGreaterThan(0)
    await table.filter('stubbed').click()
    await expect(table.filter('stubbed')).toHaveAttribute('aria-pressed', 'true')
    await expect(table.scroll).toHaveAttribute('data-rows', String(stubbed))
    await expect(rows.first()).toBeVisible()
    const pills = await table.statusPills.allTextContents()
    expect(pills.length).toBeGreaterThan(0)
    expect(pills.length).toBeLessThan(100)
    for (const pill of pills) expect(pill).toBe('stubbed')
  })

  test('chips work from the keyboard and headers sort', async ({ app }) => {
    const table = new GroupTableSection(app.page)
    await app.open()
    await app.expectRun('recommended')
    await table.filter('changed').focus()
    await app.page.keyboard.press('Enter')
    await expect(table.filter('changed')).toHaveAttribute('aria-pressed', 'true')

    await table.filter('all').click()
    await table.root.getByRole('button', { name: /^Before/ }).click()
    await expect(table.root.locator('th[aria-sort]')).toHaveAttribute('aria-sort', 'descending')
    const before = await table.rows.evaluateAll((trs) =>
      trs.map((tr) => tr.querySelector('td.gt-before')?.textContent ?? ''),
    )
    const values = before.map((t) => Number(t.replaceAll(',', '')))
    expect(values).toEqual([...values].sort((a, b) => b - a))
  })
})

test('dragging a column resizer with the mouse widens that column', async ({ app }) => {
  await app.open()
  await app.expectRun('recommended')
  const resizer = app.page.getByTestId('column-resizer').first()
  const before = Number(await resizer.getAttribute('aria-valuenow'))
  const box = await resizer.boundingBox()
  if (!box) throw new Error('the first column resizer has no box')
  const y = box.y + box.height / 2
  await app.page.mouse.move(box.x + box.width / 2, y)
  await app.page.mouse.down()
  await app.page.mouse.move(box.x + box.width / 2 + 30, y, { steps: 3 })
  await app.page.mouse.move(box.x + box.width / 2 + 60, y, { steps: 3 })
  await app.page.mouse.up()
  await expect
    .poll(async () => Number(await resizer.getAttribute('aria-valuenow')))
    .toBeGreaterThan(before + 30)
})

test("a row's sentence is asked for after the run and then reads and searches like the rest", async ({
  app,
}) => {
  const table = new TablePage(app.page)
  await app.open()
  await app.expectRun('recommended')
  // Words that only a decision's sentence holds (the supersession's), not a reason or a status.
  await table.query.fill('/newer result for this resource/')
  await expect.poll(() => table.shown()).toBeGreaterThan(0)
  const titles = await table.rows.evaluateAll((trs) =>
    trs.map((tr) => tr.querySelector('td.gt-reason span[title]')?.getAttribute('title') ?? ''),
  )
  expect(titles.length).toBeGreaterThan(0)
  for (const title of titles)
    expect(title).toMatch(/superseded · .* newer result for this resource/)
  // Another preset: its own sentences come in, the old ones are not shown for it.
  await table.query.fill('/Clear tool uses: older than/')
  await app.choosePreset('anthropic-clear-tool-uses')
  await app.expectRun('anthropic-clear-tool-uses')
  await expect.poll(() => table.shown()).toBeGreaterThan(0)
})
