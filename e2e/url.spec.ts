import { expect, test } from './fixtures.ts'
import { TID } from '../src/ui/testids.ts'
import { CommandsPage } from './pages/CommandsPage.ts'

/** A line of the built-in sample's first prompt: transcript text that must never reach the URL. */
const SAMPLE_TEXT = '`npm test` fails on main'

test.describe('URL state', () => {
  test('preset, chip and selection come back after a reload', async ({ app }) => {
    const page = app.page
    const ui = new CommandsPage(page)
    await ui.open()
    await ui.presetPicker.selectOption('anthropic-clear-tool-uses')
    await ui.expectRun('anthropic-clear-tool-uses')
    await ui.chip('stubbed').click()
    await expect(ui.rows.first()).toHaveAttribute('data-status', 'stubbed')
    await ui.press('j', 'j', 'Enter')
    const selected = await ui.selected()
    expect(selected).not.toBe('')
    await ui.expectDrawer('open')

    await ui.expectHashParam('preset', 'anthropic-clear-tool-uses')
    await ui.expectHashParam('chip', 'stubbed')
    await ui.expectHashParam('sel', selected)
    await ui.expectHashParam('drawer', '1')

    await page.reload()
    await ui.expectRun('anthropic-clear-tool-uses')
    await expect(ui.presetPicker).toHaveValue('anthropic-clear-tool-uses')
    await expect(ui.chip('stubbed')).toHaveAttribute('aria-pressed', 'true')
    await ui.expectSelected(selected)
    await ui.expectDrawer('open')
    await expect(ui.row(selected)).toHaveAttribute('aria-selected', 'true')
    // And the URL still says so once the app has caught up.
    await ui.expectHashParam('sel', selected)

    // Navigation continues from the restored selection.
    await ui.press('Escape', 'j')
    await expect(ui.app).not.toHaveAttribute('data-selected-group', selected)
  })

  test('a custom config in the URL is the one the first run uses', async ({ app }) => {
    const page = app.page
    const ui = new CommandsPage(page)
    const config = {
      version: 1,
      name: 'from-the-url',
      window: { contextTokens: 60_000, reservedOutput: 4_000, buffer: 0 },
      pipeline: [{ strategy: 'supersede-stale-results', params: {} }],
    }
    const token = 'j.' + Buffer.from(JSON.stringify(config)).toString('base64url')
    await ui.open(`preset=lip&cfg=${token}&q=tool%3ARead`, 'from-the-url')
    await expect(ui.tableQuery).toHaveValue('tool:Read')
    // The app rewrites it in its own (compressed) form, and it still decodes to the same config.
    await ui.expectHashParam('cfg', /^z\./)
    await page.reload()
    await ui.expectRun('from-the-url')
  })

  test('a brushed range in the URL filters the table once the run is in', async ({ app }) => {
    const page = app.page
    const ui = new CommandsPage(page)
    await ui.open('brush=0-20&chip=kept')
    const brush = page.getByTestId(TID.tableBrush)
    await expect(brush).toHaveAttribute('data-from', '0')
    await expect(brush).toHaveAttribute('data-to', '20')
    await expect(ui.chip('kept')).toHaveAttribute('aria-pressed', 'true')
    await ui.expectHashParam('brush', '0-20')
    // Clearing it in the table clears it in the URL.
    await page.getByTestId(TID.tableBrushClear).click()
    await ui.expectHashParam('brush', null)
    await ui.expectHashParam('chip', 'kept')
  })

  test('the URL never holds transcript text', async ({ app }) => {
    const page = app.page
    const ui = new CommandsPage(page)
    await ui.open()
    // The preview of the transcript is in the overview; j then brings back the list.
    await page.locator(`[data-testid="${TID.viewTab}"][data-view="overview"]`).click()
    await expect(page.getByText(SAMPLE_TEXT).first()).toBeVisible()
    await ui.presetPicker.selectOption('lip')
    await ui.expectRun('lip')
    await ui.press('j', 'Enter', '2')
    await ui.expectHashParam('tab', 'raw')
    const url = decodeURIComponent(page.url())
    expect(url).not.toContain(SAMPLE_TEXT)
    expect(url).not.toContain('npm test')
    expect(url.length).toBeLessThan(400)

    // A pasted transcript: its text stays out of the URL too.
    const secret = 'zebra-quartz-4711 is the secret line'
    await ui.pasteBox.fill(
      JSON.stringify({
        messages: [
          { role: 'user', content: secret },
          { role: 'assistant', content: 'ok' },
        ],
      }),
    )
    await page.getByTestId('load-button').click()
    await expect(ui.app).toHaveAttribute('data-status', 'loaded')
    await ui.expectRun('lip')
    await ui.press('j', 'Enter')
    await ui.expectHashParam('drawer', '1')
    expect(decodeURIComponent(page.url())).not.toContain('zebra')
  })
})

test.describe('panel sizes', () => {
  test('a resized import column and drawer keep their size after a reload', async ({ app }) => {
    const page = app.page
    const ui = new CommandsPage(page)
    await page.setViewportSize({ width: 1400, height: 900 })
    await ui.open()
    await expect(ui.importSplitter).toHaveAttribute('role', 'separator')
    const start = await ui.splitterValue(ui.importSplitter)
    await ui.drag(ui.importSplitter, -40)
    await expect.poll(() => ui.splitterValue(ui.importSplitter)).toBe(start - 40)
    // Keyboard: focus the splitter, arrows resize (16 px a step).
    await ui.importSplitter.focus()
    await page.keyboard.press('ArrowRight')
    await page.keyboard.press('ArrowRight')
    const imported = start - 40 + 32
    await expect(ui.importSplitter).toHaveAttribute('aria-valuenow', String(imported))
    const column = page.locator('#import-column')
    await expect.poll(async () => (await column.boundingBox())?.width).toBe(imported)

    await ui.press('j', 'Enter')
    await expect(ui.drawerSplitter).toBeVisible()
    const drawer = await ui.splitterValue(ui.drawerSplitter)
    await ui.drawerSplitter.focus()
    await page.keyboard.press('Shift+ArrowLeft')
    await expect(ui.drawerSplitter).toHaveAttribute('aria-valuenow', String(drawer + 64))
    // The open drawer reaches the URL after a debounce: reload once it is there.
    await expect.poll(() => page.url()).toContain('drawer=1')

    await page.reload()
    await ui.expectRun('recommended')
    await expect(ui.importSplitter).toHaveAttribute('aria-valuenow', String(imported))
    await expect(ui.drawerSplitter).toHaveAttribute('aria-valuenow', String(drawer + 64))
  })

  test('sizes are clamped to a narrower viewport, and the import column collapses', async ({
    app,
  }) => {
    const page = app.page
    const ui = new CommandsPage(page)
    await page.setViewportSize({ width: 1400, height: 900 })
    await ui.open()
    await ui.importSplitter.focus()
    await page.keyboard.press('End')
    const widest = await ui.splitterValue(ui.importSplitter)
    await page.setViewportSize({ width: 1000, height: 900 })
    await expect.poll(() => ui.splitterValue(ui.importSplitter)).toBeLessThan(widest)
    const max = Number(await ui.importSplitter.getAttribute('aria-valuemax'))
    await expect(ui.importSplitter).toHaveAttribute('aria-valuenow', String(max))

    await ui.importToggle.click()
    await expect(ui.importToggle).toHaveAttribute('aria-expanded', 'false')
    await expect(ui.pasteBox).toBeHidden()
    await page.reload()
    await ui.expectRun('recommended')
    await expect(ui.pasteBox).toBeHidden()
    // `p` brings the column back and focuses the box.
    await ui.press('p')
    await expect(ui.pasteBox).toBeFocused()
    await expect(ui.importToggle).toHaveAttribute('aria-expanded', 'true')
  })
})
