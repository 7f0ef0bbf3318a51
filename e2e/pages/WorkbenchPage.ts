import { expect, type Locator, type Page } from '@playwright/test'
import { TID } from '../../src/ui/testids.ts'

export interface Box {
  readonly x: number
  readonly y: number
  readonly width: number
  readonly height: number
}

/** The workbench shell (issue 15): panes, views, find, recent files, the layout's geometry. */
export class WorkbenchPage {
  readonly page: Page
  readonly app: Locator
  readonly rows: Locator
  readonly listScroll: Locator
  readonly timeline: Locator
  readonly detailPane: Locator
  readonly drawer: Locator
  readonly findInput: Locator
  readonly findCount: Locator
  readonly recentFiles: Locator
  readonly recentFile: Locator
  readonly loadError: Locator
  readonly budgetHeadline: Locator
  readonly pasteBox: Locator
  readonly loadButton: Locator
  readonly sourceLine: Locator
  readonly help: Locator
  readonly helpRows: Locator

  constructor(page: Page) {
    this.page = page
    const id = (testId: string) => page.getByTestId(testId)
    this.app = id(TID.app)
    this.rows = id(TID.groupRow)
    this.listScroll = page.locator('#group-list .gt-scroll')
    this.timeline = id(TID.timeline)
    this.detailPane = id(TID.detailPane)
    this.drawer = id(TID.detailDrawer)
    this.findInput = id(TID.findInput)
    this.findCount = id(TID.findCount)
    this.recentFiles = id(TID.recentFiles)
    this.recentFile = id(TID.recentFile)
    this.loadError = id(TID.loadError)
    this.budgetHeadline = id(TID.budgetHeadline)
    this.pasteBox = id(TID.pasteBox)
    this.loadButton = id(TID.loadButton)
    this.sourceLine = id(TID.sourceLine)
    this.help = id(TID.shortcutsHelp)
    this.helpRows = id(TID.shortcutRow)
  }

  /** Open the app and wait for a finished run of `preset` (the sample, or what was kept). */
  async open(fragment = '', preset = 'recommended'): Promise<void> {
    await this.page.goto(`/${fragment ? `#${fragment}` : ''}`)
    await this.expectRun(preset)
  }

  async expectRun(preset = 'recommended'): Promise<void> {
    await expect(this.page.getByTestId(TID.runStatus)).toHaveAttribute('data-status', 'done')
    await expect(this.budgetHeadline).toHaveAttribute('data-config', preset)
    // The first run prices with the estimate while the exact count is under way: wait for the
    // run on exact counts, so figures read now are the ones that stay.
    await expect(this.budgetHeadline).not.toHaveAttribute('data-tokenizer', 'estimate')
    // …and settled: the idempotence round follows the first paint and may move the figures.
    await expect(this.page.getByTestId(TID.invariants)).not.toHaveAttribute('data-ok', 'pending')
    await expect(this.rows.first()).toBeVisible()
  }

  /** Press keys with nothing focused, the way a shortcut user would. */
  async pressOnPage(...keys: string[]): Promise<void> {
    await this.page.evaluate(() => {
      if (document.activeElement instanceof HTMLElement) document.activeElement.blur()
    })
    for (const key of keys) await this.page.keyboard.press(key)
  }

  async selected(): Promise<string> {
    return (await this.app.getAttribute('data-selected-group')) ?? ''
  }

  row(id: string): Locator {
    return this.page.locator(`[data-testid="${TID.groupRow}"][data-group="${id}"]`)
  }

  chip(id: string): Locator {
    return this.page.locator(`[data-testid="${TID.groupFilter}"][data-filter="${id}"]`)
  }

  view(id: string): Locator {
    return this.page.locator(`[data-testid="${TID.viewTab}"][data-view="${id}"]`)
  }

  /** The document's own scroll range (0 when the page never scrolls). */
  async pageScrollRange(): Promise<{ vertical: number; horizontal: number }> {
    return this.page.evaluate(() => {
      const el = document.scrollingElement ?? document.documentElement
      return {
        vertical: el.scrollHeight - el.clientHeight,
        horizontal: el.scrollWidth - el.clientWidth,
      }
    })
  }

  async box(locator: Locator): Promise<Box> {
    const box = await locator.boundingBox()
    if (!box) throw new Error('not laid out')
    return box
  }

  /** Is `inner` inside `outer` vertically (a wide list scrolls sideways; rows keep their x)? */
  static inRows(inner: Box, outer: Box): boolean {
    return inner.y >= outer.y - 1 && inner.y + inner.height <= outer.y + outer.height + 1
  }

  /** Is `inner` inside `outer` (to the pixel)? */
  static within(inner: Box, outer: Box): boolean {
    return (
      inner.x >= outer.x - 1 &&
      inner.y >= outer.y - 1 &&
      inner.x + inner.width <= outer.x + outer.width + 1 &&
      inner.y + inner.height <= outer.y + outer.height + 1
    )
  }

  /** Where focus is: the test id (or class) of the focused element and of its pane. */
  async focusInfo(): Promise<{ testId: string; inDrawer: boolean; inList: boolean }> {
    return this.page.evaluate((drawerId) => {
      const el = document.activeElement
      return {
        testId: el?.getAttribute('data-testid') ?? el?.className ?? '',
        inDrawer: el?.closest(`[data-testid="${drawerId}"]`) !== null,
        inList: el?.closest('#group-list') !== null,
      }
    }, TID.detailDrawer)
  }

  /** Drop a file on the page the way a browser does (dragenter → dragover → drop). */
  async dropFile(name: string, content: string): Promise<void> {
    await this.page.evaluate(
      ({ name, content }) => {
        const data = new DataTransfer()
        data.items.add(new File([content], name, { type: 'application/json' }))
        for (const type of ['dragenter', 'dragover', 'drop']) {
          const event = new DragEvent(type, { dataTransfer: data, bubbles: true, cancelable: true })
          document.body.dispatchEvent(event)
        }
      },
      { name, content },
    )
  }
}
