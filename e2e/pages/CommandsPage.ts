import { expect, type Locator, type Page } from '@playwright/test'
import { TID } from '../../src/ui/testids.ts'

/** Keyboard commands, palette, ? help, URL state and the resizable panels. */
export class CommandsPage {
  readonly page: Page
  readonly app: Locator
  readonly rows: Locator
  readonly palette: Locator
  readonly paletteInput: Locator
  readonly paletteItems: Locator
  readonly help: Locator
  readonly helpRows: Locator
  readonly tableQuery: Locator
  readonly pasteBox: Locator
  readonly presetPicker: Locator
  readonly themeToggle: Locator
  readonly importSplitter: Locator
  readonly drawerSplitter: Locator
  readonly importToggle: Locator

  constructor(page: Page) {
    this.page = page
    const id = (testId: string) => page.getByTestId(testId)
    this.app = id(TID.app)
    this.rows = id(TID.groupRow)
    this.palette = id(TID.commandPalette)
    this.paletteInput = id(TID.paletteInput)
    this.paletteItems = id(TID.paletteItem)
    this.help = id(TID.shortcutsHelp)
    this.helpRows = id(TID.shortcutRow)
    this.tableQuery = id(TID.tableQuery)
    this.pasteBox = id(TID.pasteBox)
    this.presetPicker = id(TID.presetPicker)
    this.themeToggle = id(TID.themeToggle)
    this.importSplitter = id(TID.importSplitter)
    this.drawerSplitter = id(TID.drawerSplitter)
    this.importToggle = id(TID.importToggle)
  }

  /** Open the app (optionally with a URL fragment) and wait for a finished run of `preset`. */
  async open(fragment = '', preset = 'recommended'): Promise<void> {
    await this.page.goto(`/${fragment ? `#${fragment}` : ''}`)
    await this.expectRun(preset)
  }

  async expectRun(preset: string): Promise<void> {
    await expect(this.page.getByTestId(TID.runStatus)).toHaveAttribute('data-status', 'done')
    await expect(this.page.getByTestId(TID.budgetHeadline)).toHaveAttribute('data-config', preset)
  }

  /** Press keys on the page itself (nothing focused), the way a shortcut user would. */
  async press(...keys: string[]): Promise<void> {
    await this.page.evaluate(() => {
      if (document.activeElement instanceof HTMLElement) document.activeElement.blur()
    })
    for (const key of keys) await this.page.keyboard.press(key)
  }

  /** The selected group id, as the app root states it ('' when none). */
  async selected(): Promise<string> {
    return (await this.app.getAttribute('data-selected-group')) ?? ''
  }

  async expectSelected(id: string): Promise<void> {
    await expect(this.app).toHaveAttribute('data-selected-group', id)
  }

  async expectDrawer(state: 'open' | 'closed'): Promise<void> {
    await expect(this.app).toHaveAttribute('data-drawer', state)
  }

  /** Group ids of the rows in the DOM, in display order. */
  async rowIds(): Promise<string[]> {
    return this.rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-group') ?? ''))
  }

  row(id: string): Locator {
    return this.page.locator(`[data-testid="${TID.groupRow}"][data-group="${id}"]`)
  }

  chip(id: string): Locator {
    return this.page.locator(`[data-testid="${TID.groupFilter}"][data-filter="${id}"]`)
  }

  /** The URL fragment as parameters. */
  async hashParams(): Promise<URLSearchParams> {
    return new URLSearchParams(new URL(this.page.url()).hash.slice(1))
  }

  async expectHashParam(name: string, value: string | RegExp | null): Promise<void> {
    await expect
      .poll(async () => (await this.hashParams()).get(name))
      .toEqual(value instanceof RegExp ? expect.stringMatching(value) : value)
  }

  async splitterValue(splitter: Locator): Promise<number> {
    return Number(await splitter.getAttribute('aria-valuenow'))
  }

  /** Drag a splitter horizontally by `dx` pixels with the mouse. */
  async drag(splitter: Locator, dx: number): Promise<void> {
    const box = await splitter.boundingBox()
    if (!box) throw new Error('splitter not visible')
    const x = box.x + box.width / 2
    const y = box.y + Math.min(box.height / 2, 200)
    await this.page.mouse.move(x, y)
    await this.page.mouse.down()
    await this.page.mouse.move(x + dx / 2, y, { steps: 4 })
    await this.page.mouse.move(x + dx, y, { steps: 4 })
    await this.page.mouse.up()
  }
}
