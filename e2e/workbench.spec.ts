import { mkdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { expect, test } from './fixtures.ts'
import { WorkbenchPage } from './pages/WorkbenchPage.ts'
import { TID } from '../src/ui/testids.ts'

/** Written by every run, gitignored: look at them (issue 15's acceptance). */
const SHOTS = fileURLToPath(new URL('./screenshots/', import.meta.url))

/** A small chat-completions body of our own: two reads of one file, so a stub is likely. */
const read = (id: string) => ({
  id,
  type: 'function',
  function: { name: 'read_file', arguments: JSON.stringify({ path: 'src/a.ts' }) },
})
const DROPPED = JSON.stringify({
  model: 'gpt-4o',
  messages: [
    { role: 'user', content: 'Fix src/a.ts please' },
    { role: 'assistant', content: null, tool_calls: [read('c1')] },
    { role: 'tool', tool_call_id: 'c1', content: 'export const x = 1\n'.repeat(80) },
    { role: 'assistant', content: null, tool_calls: [read('c2')] },
    { role: 'tool', tool_call_id: 'c2', content: 'export const x = 2\n'.repeat(80) },
    { role: 'assistant', content: 'Done: x is 2 now.' },
  ],
})

for (const [width, height] of [
  [1440, 900],
  [1280, 720],
] as const) {
  for (const scheme of ['light', 'dark'] as const) {
    test(`one screen at ${width}×${height} (${scheme}): timeline, list and detail in view, no page scroll`, async ({
      app,
    }) => {
      const page = app.page
      await page.setViewportSize({ width, height })
      await page.emulateMedia({ colorScheme: scheme })
      const ui = new WorkbenchPage(page)
      await ui.open()
      await ui.rows.nth(2).click()
      await expect(ui.drawer).toHaveAttribute('data-state', 'ready')

      expect(await ui.pageScrollRange()).toEqual({ vertical: 0, horizontal: 0 })
      // A wheel over the page must not move the document either.
      await page.mouse.move(width / 2, 20)
      await page.mouse.wheel(0, 800)
      expect(await page.evaluate(() => window.scrollY)).toBe(0)

      const viewport = { x: 0, y: 0, width, height }
      const timeline = await ui.box(ui.timeline)
      const list = await ui.box(ui.listScroll)
      const detail = await ui.box(ui.detailPane)
      for (const box of [timeline, list, detail]) {
        expect(WorkbenchPage.within(box, viewport)).toBe(true)
      }
      // The timeline is above the list; the detail beside it, never over it.
      expect(timeline.y + timeline.height).toBeLessThanOrEqual(list.y)
      expect(list.x + list.width).toBeLessThanOrEqual(detail.x)
      // Room for rows: at least eight 28 px rows of the list are visible.
      expect(list.height).toBeGreaterThan(8 * 28)

      mkdirSync(SHOTS, { recursive: true })
      await page.screenshot({ path: `${SHOTS}workbench-${width}x${height}-${scheme}.png` })
    })
  }
}

test('j ×30 keeps the selected row in view; a single click shows the detail', async ({ app }) => {
  const page = app.page
  await page.setViewportSize({ width: 1280, height: 720 })
  const ui = new WorkbenchPage(page)
  await ui.open()
  await ui.pressOnPage()
  for (let i = 0; i < 30; i++) await page.keyboard.press('j')
  await expect(ui.app).toHaveAttribute('data-selected-group', /.+/)
  const id = await ui.selected()
  // The list scrolls after the selection renders: poll until it settled.
  await expect
    .poll(async () => WorkbenchPage.inRows(await ui.box(ui.row(id)), await ui.box(ui.listScroll)))
    .toBe(true)

  const other = ui.rows.nth(1)
  const otherId = (await other.getAttribute('data-group')) ?? ''
  await other.click()
  await expect(ui.app).toHaveAttribute('data-selected-group', otherId)
  await expect(ui.drawer).toHaveAttribute('data-group', otherId)
  await expect(ui.drawer).toHaveAttribute('data-state', 'ready')
})

test('Enter moves focus into the detail, Esc back to the list, Esc again closes it', async ({
  app,
}) => {
  const ui = new WorkbenchPage(app.page)
  await ui.open()
  await ui.pressOnPage('j', 'j', 'Enter')
  await expect(ui.drawer).toBeVisible()
  await expect.poll(async () => (await ui.focusInfo()).inDrawer).toBe(true)
  await app.page.keyboard.press('Escape')
  await expect.poll(async () => (await ui.focusInfo()).inList).toBe(true)
  await expect(ui.app).toHaveAttribute('data-drawer', 'open')
  // From the list, j keeps browsing with the detail following.
  const before = await ui.selected()
  await app.page.keyboard.press('j')
  await expect(ui.app).not.toHaveAttribute('data-selected-group', before)
  await expect(ui.drawer).toHaveAttribute('data-group', await ui.selected())
  await app.page.keyboard.press('Escape')
  await expect(ui.app).toHaveAttribute('data-drawer', 'closed')
  await expect(ui.drawer).toHaveCount(0)
})

test('Ctrl+O opens the file chooser', async ({ app }) => {
  const ui = new WorkbenchPage(app.page)
  await ui.open()
  await ui.pressOnPage()
  const chooser = app.page.waitForEvent('filechooser')
  await app.page.keyboard.press('Control+o')
  const opened = await chooser
  expect(opened.isMultiple()).toBe(true)
})

test('find highlights matches without narrowing the list; Enter / Shift+Enter cycle', async ({
  app,
}) => {
  const ui = new WorkbenchPage(app.page)
  await ui.open()
  const all = await ui.listScroll.getAttribute('data-rows')
  await ui.pressOnPage('/')
  await expect(ui.findInput).toBeFocused()
  await app.page.keyboard.type('Read')
  await expect(ui.findCount).not.toHaveAttribute('data-matches', '0')
  const matches = Number(await ui.findCount.getAttribute('data-matches'))
  expect(matches).toBeGreaterThan(2)
  // Find marks, it does not filter: every row is still in the list.
  await expect(ui.listScroll).toHaveAttribute('data-rows', all ?? '')

  await app.page.keyboard.press('Enter')
  await expect(ui.findCount).toHaveAttribute('data-current', '1')
  const first = await ui.selected()
  await expect(ui.row(first)).toHaveAttribute('data-match', 'true')
  await app.page.keyboard.press('Enter')
  await expect(ui.findCount).toHaveAttribute('data-current', '2')
  const second = await ui.selected()
  expect(second).not.toBe(first)
  await app.page.keyboard.press('Shift+Enter')
  await expect(ui.findCount).toHaveAttribute('data-current', '1')
  await expect(ui.app).toHaveAttribute('data-selected-group', first)
  // Shift+Enter from the first wraps to the last match, scrolled into view.
  await app.page.keyboard.press('Shift+Enter')
  await expect(ui.findCount).toHaveAttribute('data-current', String(matches))
  const last = await ui.selected()
  await expect
    .poll(async () => WorkbenchPage.inRows(await ui.box(ui.row(last)), await ui.box(ui.listScroll)))
    .toBe(true)
  // The first Esc leaves the field; n steps on from the page.
  await app.page.keyboard.press('Escape')
  await expect(ui.findInput).not.toBeFocused()
  await app.page.keyboard.press('n')
  await expect(ui.findCount).toHaveAttribute('data-current', '1')
})

test('? lists every key of the one command registry, the new ones included', async ({ app }) => {
  const ui = new WorkbenchPage(app.page)
  await ui.open()
  await ui.pressOnPage('?')
  await expect(ui.help).toBeVisible()
  const ids = await ui.helpRows.evaluateAll((rows) =>
    rows.map((r) => r.getAttribute('data-command') ?? ''),
  )
  for (const id of ['find.open', 'find.next', 'load.file', 'view.overview', 'list.focus']) {
    expect(ids).toContain(id)
  }
  await expect(ui.help.locator('[data-command="load.file"]')).toContainText('O')
  await expect(ui.help.locator('[data-command="find.open"]')).toContainText('/')
  await app.page.keyboard.press('Escape')
  await expect(ui.help).toHaveCount(0)
  // The header's ? button opens the same list.
  await app.page.getByTestId(TID.helpButton).click()
  await expect(ui.help).toBeVisible()
})

test('a stubbed row shows its stub text first, the original one click away', async ({ app }) => {
  const ui = new WorkbenchPage(app.page)
  await ui.open()
  await ui.chip('stubbed').click()
  const row = ui.rows.first()
  await expect(row).toHaveAttribute('data-status', 'stubbed')
  const id = (await row.getAttribute('data-group')) ?? ''
  await row.getByTestId(TID.rowExpand).click()
  const subRows = app.page.locator(`[data-testid="${TID.groupSubRow}"][data-group="${id}"]`)
  await expect(subRows.filter({ has: app.page.getByTestId(TID.subRowOriginal) })).toHaveAttribute(
    'data-side',
    'replacement',
  )
  const replaced = subRows.and(app.page.locator('[data-replaced="true"]'))
  await expect(replaced.first()).toBeVisible()
  const stubText = (await replaced.first().locator('.gt-sub-text').textContent()) ?? ''
  expect(stubText.length).toBeGreaterThan(0)
  await app.page.getByTestId(TID.subRowOriginal).click()
  await expect(app.page.getByTestId(TID.subRowOriginal)).toHaveAttribute('aria-pressed', 'true')
  await expect(replaced).toHaveCount(0)
  // The original is longer than what replaced it.
  const texts = await subRows.locator('.gt-sub-text').allTextContents()
  expect(texts.join('').length).toBeGreaterThan(stubText.length)
})

test('an excluded row is dimmed and keeps a readable reason badge', async ({ app }) => {
  const ui = new WorkbenchPage(app.page)
  await ui.open()
  await ui.chip('excluded').click()
  const row = ui.rows.first()
  await expect(row).toHaveAttribute('data-status', 'excluded')
  const kindOpacity = await row
    .locator('td.gt-kind')
    .evaluate((td) => Number(getComputedStyle(td).opacity))
  expect(kindOpacity).toBeLessThan(0.7)
  await expect(row.getByTestId(TID.reasonBadge)).toBeVisible()
  // A kept row is not dimmed.
  await ui.chip('kept').click()
  const kept = await ui.rows
    .first()
    .locator('td.gt-kind')
    .evaluate((td) => Number(getComputedStyle(td).opacity))
  expect(kept).toBe(1)
})

test('a garbage paste keeps the previous analysis on screen and says so beside it', async ({
  app,
}) => {
  const ui = new WorkbenchPage(app.page)
  await ui.open()
  const before = await ui.budgetHeadline.getAttribute('data-before')
  const rows = await ui.listScroll.getAttribute('data-rows')
  await ui.pasteBox.fill('this is {not a transcript at all')
  await ui.loadButton.click()
  await expect(ui.loadError).toBeVisible()
  await expect(ui.loadError).toHaveAttribute('data-kept', 'true')
  await expect(ui.loadError).toContainText('still showing the analysis of coding-session.jsonl')
  await expect(ui.app).toHaveAttribute('data-status', 'loaded')
  await expect(ui.budgetHeadline).toHaveAttribute('data-before', before ?? '')
  await expect(ui.listScroll).toHaveAttribute('data-rows', rows ?? '')
  // The kept analysis still answers: a row opens its detail.
  await ui.rows.nth(1).click()
  await expect(ui.drawer).toHaveAttribute('data-state', 'ready')
  await expect(ui.pasteBox).toHaveValue('this is {not a transcript at all')
})

test('a dropped transcript and its selected group survive a reload; forget removes it', async ({
  app,
}) => {
  const page = app.page
  const ui = new WorkbenchPage(page)
  await ui.open()
  await ui.dropFile('mine.json', DROPPED)
  await expect(ui.sourceLine).toContainText('mine.json')
  await ui.expectRun()
  await expect(ui.recentFile.filter({ hasText: 'mine.json' })).toHaveCount(1)
  const target = ui.rows.nth(2)
  const id = (await target.getAttribute('data-group')) ?? ''
  await target.click()
  await expect(ui.drawer).toHaveAttribute('data-group', id)
  // The selection reaches the URL after a debounce; the transcript never does.
  await expect.poll(() => page.url()).toContain(`sel=${encodeURIComponent(id)}`)
  expect(page.url()).not.toContain('export const')

  await page.reload()
  await ui.expectRun()
  await expect(ui.sourceLine).toContainText('mine.json')
  await expect(ui.app).toHaveAttribute('data-selected-group', id)
  await expect(ui.drawer).toHaveAttribute('data-group', id)

  await ui.recentFile.filter({ hasText: 'mine.json' }).getByTestId(TID.recentForget).click()
  await expect(ui.recentFile).toHaveCount(0)
  await page.goto('/')
  await ui.expectRun()
  // Forgotten: the next visit opens the built-in sample again.
  await expect(ui.sourceLine).toContainText('coding-session.jsonl')
})

test('transcripts kept by the first version of the store are still listed, opened and forgotten', async ({
  app,
}) => {
  const page = app.page
  const ui = new WorkbenchPage(page)
  // A static file of the same origin: the database can be laid out as version 1 left it
  // (transcripts only, no metadata store) before the app first opens it.
  // (The browser asks a JSON page for a favicon, which the app does not have.)
  await page.route('**/favicon.ico', (route) => route.fulfill({ status: 204 }))
  await page.goto('/schema/config-v1.json')
  const ids = await page.evaluate(async (text) => {
    const bytes = new Blob([text]).size
    const kept = ['old.json', 'older.json'].map((name, i) => ({
      id: `file:${name}:${bytes}`,
      name,
      origin: 'file',
      bytes,
      savedAt: 2 - i,
      data: new Blob([text]),
    }))
    await new Promise<void>((resolve, reject) => {
      const req = indexedDB.open('compaction-lab', 1)
      req.onupgradeneeded = () => {
        const store = req.result.createObjectStore('recent-transcripts.v1', { keyPath: 'id' })
        for (const record of kept) store.put(record)
      }
      req.onsuccess = () => {
        req.result.close()
        resolve()
      }
      req.onerror = () => reject(req.error)
    })
    const last = { kind: 'recent', id: kept[0]?.id }
    localStorage.setItem('compaction-lab:recent.last.v1', JSON.stringify(last))
    return kept.map((k) => k.id)
  }, DROPPED)
  // The last one opened comes back; the other, never opened by this version, is still listed.
  await ui.open()
  await expect(ui.sourceLine).toContainText('old.json')
  await expect(ui.recentFile.filter({ hasText: 'old.json' })).toHaveCount(1)
  await expect(ui.recentFile.filter({ hasText: 'older.json' })).toHaveCount(1)
  await ui.recentFile.filter({ hasText: 'older.json' }).getByTestId(TID.recentForget).click()
  await expect(ui.recentFile).toHaveCount(1)
  // Forgotten from the content store too, not just from the list.
  const left = await page.evaluate(
    (keys) =>
      new Promise<number[]>((resolve, reject) => {
        const req = indexedDB.open('compaction-lab')
        req.onsuccess = () => {
          const store = req.result
            .transaction('recent-transcripts.v1')
            .objectStore('recent-transcripts.v1')
          const counts = keys.map((key) => store.count(key))
          const last = counts[counts.length - 1]
          if (!last) return resolve([])
          last.onsuccess = () => resolve(counts.map((c) => c.result))
          last.onerror = () => reject(last.error)
        }
        req.onerror = () => reject(req.error)
      }),
    ids,
  )
  expect(left).toEqual([1, 0])
})

test('keyboard only: load the sample, change a threshold, read a Why, export a config', async ({
  app,
}) => {
  const page = app.page
  const ui = new WorkbenchPage(page)
  await ui.open()
  // Load the sample from the command palette.
  await ui.pressOnPage('Control+k')
  await page.keyboard.type('built-in sample')
  await page.keyboard.press('Enter')
  await ui.expectRun()

  // Change a trigger threshold: c focuses the config editor, Tab walks to the field.
  await page.keyboard.press('c')
  const path = 'pipeline[0].trigger.conditions[0].over'
  for (let i = 0; i < 60; i++) {
    const at = await page.evaluate(() => document.activeElement?.getAttribute('data-path'))
    if (at === path) break
    await page.keyboard.press('Tab')
  }
  const field = page.locator(`[data-testid="${TID.configField}"][data-path="${path}"]`)
  await expect(field).toBeFocused()
  await page.keyboard.press('ControlOrMeta+a')
  await page.keyboard.type('0.6')
  await expect(field).toHaveValue('0.6')
  await expect(page.getByTestId(TID.configEdited)).toBeVisible()
  // The first Esc leaves the field; the edited config runs.
  await page.keyboard.press('Escape')
  await expect(field).not.toBeFocused()
  await expect(page.getByTestId(TID.runStatus)).toHaveAttribute('data-status', 'done')

  // Read a Why: l focuses the list, j selects, Enter moves into the detail, 4 shows Why.
  await page.keyboard.press('l')
  await page.keyboard.press('j')
  await page.keyboard.press('Enter')
  await expect.poll(async () => (await ui.focusInfo()).inDrawer).toBe(true)
  await page.keyboard.press('4')
  await expect(page.getByTestId(TID.detailPanel)).toHaveAttribute('data-tab', 'why')
  await page.keyboard.press('Escape')

  // Export the config: e opens the dialog; Tab to Download, Enter.
  await page.keyboard.press('e')
  const dialog = page.getByTestId(TID.exportDialog)
  await expect(dialog).toBeVisible()
  await expect(page.getByTestId(TID.exportPreview)).toHaveAttribute('data-state', 'ready')
  for (let i = 0; i < 40; i++) {
    const at = await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))
    if (at === TID.exportDownload) break
    await page.keyboard.press('Tab')
  }
  await expect(page.getByTestId(TID.exportDownload)).toBeFocused()
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.keyboard.press('Enter'),
  ])
  expect(download.suggestedFilename()).toMatch(/\.json$/)
})
