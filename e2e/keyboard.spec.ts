import { expect, test } from './fixtures.ts'
import { CommandsPage } from './pages/CommandsPage.ts'

test.describe('keyboard commands', () => {
  test('j/k and arrows move the selection through the rows as displayed', async ({ app }) => {
    const page = app.page
    const ui = new CommandsPage(page)
    await ui.open()
    await expect(ui.rows.first()).toBeVisible()
    const [first, second, third] = await ui.rowIds()
    expect(third).toBeTruthy()

    await ui.press('j')
    await ui.expectSelected(first ?? '')
    await expect(ui.row(first ?? '')).toHaveAttribute('aria-selected', 'true')
    await ui.press('j', 'ArrowDown')
    await ui.expectSelected(third ?? '')
    await ui.press('k')
    await ui.expectSelected(second ?? '')
    await expect(ui.row(second ?? '')).toHaveAttribute('aria-selected', 'true')
    await expect(ui.row(third ?? '')).not.toHaveAttribute('aria-selected', 'true')
    await ui.press('ArrowUp')
    await ui.expectSelected(first ?? '')

    // End / G go to the last row (scrolled into view), g g / Home back to the first.
    await ui.press('End')
    const last = await ui.selected()
    expect(last).not.toBe(first)
    await expect(ui.row(last)).toBeVisible()
    await ui.press('g', 'g')
    await ui.expectSelected(first ?? '')
    await ui.press('Shift+G')
    await ui.expectSelected(last)
    await ui.press('Home')
    await ui.expectSelected(first ?? '')
  })

  test('navigation follows the filtered rows', async ({ app }) => {
    const page = app.page
    const ui = new CommandsPage(page)
    await ui.open()
    await ui.chip('stubbed').click()
    await expect(ui.chip('stubbed')).toHaveAttribute('aria-pressed', 'true')
    await expect(ui.rows.first()).toHaveAttribute('data-status', 'stubbed')
    const ids = await ui.rowIds()
    await ui.press('j')
    await ui.expectSelected(ids[0] ?? '')
    await ui.press('j')
    await ui.expectSelected(ids[1] ?? '')
    await expect(ui.row(ids[1] ?? '')).toHaveAttribute('data-status', 'stubbed')
  })

  test('Enter opens the detail, Esc closes it, digits pick its tab', async ({ app }) => {
    const page = app.page
    const ui = new CommandsPage(page)
    await ui.open()
    await ui.press('Enter')
    await ui.expectDrawer('closed') // nothing selected yet
    await ui.press('j', 'Enter')
    await ui.expectDrawer('open')
    await ui.expectHashParam('drawer', '1')
    await ui.press('Escape')
    await ui.expectDrawer('closed')
    await ui.press('4')
    await ui.expectDrawer('open')
    await ui.expectHashParam('tab', 'why')
    await ui.press('1')
    await ui.expectHashParam('tab', null)
    await ui.press('Escape')
    await ui.expectDrawer('closed')
  })

  test('? lists every command with its keys, the same ones the palette offers', async ({ app }) => {
    const page = app.page
    const ui = new CommandsPage(page)
    await ui.open()
    await ui.press('?')
    await expect(ui.help).toBeVisible()
    await expect(ui.help).toHaveAttribute('aria-modal', 'true')
    await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible()
    const helpIds = await ui.helpRows.evaluateAll((rows) =>
      rows.map((r) => r.getAttribute('data-command') ?? ''),
    )
    for (const id of [
      'row.next',
      'row.previous',
      'row.first',
      'row.last',
      'detail.open',
      'detail.close',
      'filter.focus',
      'help.shortcuts',
      'help.palette',
      'view.theme',
      'preset.next',
      'preset.previous',
      'load.sample',
      'load.paste',
      'detail.tab.why',
    ]) {
      expect(helpIds).toContain(id)
    }
    await expect(ui.help.locator('[data-command="row.next"]')).toContainText('j')
    await expect(ui.help.locator('[data-command="row.next"] kbd')).toHaveCount(2)
    await page.keyboard.press('Escape')
    await expect(ui.help).toHaveCount(0)

    await ui.press('Control+k')
    await expect(ui.palette).toBeVisible()
    const paletteIds = await ui.paletteItems.evaluateAll((items) =>
      items.map((i) => i.getAttribute('data-command') ?? ''),
    )
    expect([...paletteIds, 'help.palette'].sort()).toEqual([...helpIds].sort())
    await page.keyboard.press('Escape')
    await expect(ui.palette).toHaveCount(0)
  })

  test('the palette filters, runs with Enter and gives focus back', async ({ app }) => {
    const page = app.page
    const ui = new CommandsPage(page)
    await ui.open()
    const theme = (await ui.themeToggle.getAttribute('data-theme-pref')) ?? ''
    await ui.themeToggle.focus()
    await page.keyboard.press('Control+k')
    await expect(ui.palette).toBeVisible()
    await expect(ui.paletteInput).toBeFocused()
    await ui.paletteInput.fill('colour theme')
    await expect(ui.paletteItems).toHaveCount(1)
    await page.keyboard.press('Enter')
    await expect(ui.palette).toHaveCount(0)
    await expect(ui.themeToggle).not.toHaveAttribute('data-theme-pref', theme)
    await expect(ui.themeToggle).toBeFocused()

    // Arrows choose; Ctrl+Shift+P opens it too; Esc closes and restores focus.
    await page.keyboard.press('Control+Shift+P')
    await expect(ui.palette).toBeVisible()
    await ui.paletteInput.fill('row')
    await page.keyboard.press('ArrowDown')
    await expect(ui.paletteItems.nth(1)).toHaveAttribute('aria-selected', 'true')
    await page.keyboard.press('Escape')
    await expect(ui.palette).toHaveCount(0)
    await expect(ui.themeToggle).toBeFocused()
  })

  test('keys typed in a field do nothing; Esc leaves the field', async ({ app }) => {
    const page = app.page
    const ui = new CommandsPage(page)
    await ui.open()
    const theme = await ui.themeToggle.getAttribute('data-theme-pref')
    await ui.pasteBox.click()
    await page.keyboard.type('jk?t]/g gG1')
    await expect(ui.pasteBox).toHaveValue('jk?t]/g gG1')
    await expect(ui.help).toHaveCount(0)
    await ui.expectSelected('')
    await expect(ui.presetPicker).toHaveValue('recommended')
    await expect(ui.themeToggle).toHaveAttribute('data-theme-pref', theme ?? '')
    await expect(ui.pasteBox).toBeFocused()

    await page.keyboard.press('Escape')
    await expect(ui.pasteBox).not.toBeFocused()
    await page.keyboard.press('j')
    await expect(ui.app).not.toHaveAttribute('data-selected-group', '')
  })

  test('f focuses the table filter, p the paste box, [ and ] switch presets', async ({ app }) => {
    const page = app.page
    const ui = new CommandsPage(page)
    await ui.open()
    await ui.press('f')
    await expect(ui.tableQuery).toBeFocused()
    await page.keyboard.type('j')
    await expect(ui.tableQuery).toHaveValue('j')
    await ui.expectSelected('')
    await ui.tableQuery.fill('')

    await ui.press('p')
    await expect(ui.pasteBox).toBeFocused()

    await ui.press(']')
    await expect(ui.presetPicker).toHaveValue('lip')
    await ui.expectRun('lip')
    await ui.press('[', '[')
    await expect(ui.presetPicker).toHaveValue('anthropic-clear-tool-uses')
  })
})
