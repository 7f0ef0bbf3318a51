import { expect, type Locator, type Page } from '@playwright/test'
import { countTestId, TID, type CountKey } from '../../src/ui/testids.ts'

/** Everything a spec needs to drive the first page, by user intent rather than by selector. */
export class AppPage {
  readonly page: Page
  readonly app: Locator
  readonly pasteBox: Locator
  readonly loadButton: Locator
  readonly fileInput: Locator
  readonly samplePicker: Locator
  readonly detectedFormat: Locator
  readonly formatConfidence: Locator
  readonly formatEvidence: Locator
  readonly formatOverride: Locator
  readonly totalTokens: Locator
  readonly tokenizerSelect: Locator
  readonly loadError: Locator
  readonly warnings: Locator
  readonly preview: Locator
  readonly sourceLine: Locator
  readonly otherFiles: Locator
  readonly privacyNote: Locator
  readonly themeToggle: Locator
  readonly compaction: Locator
  readonly presetPicker: Locator
  readonly runStatus: Locator
  readonly budgetHeadline: Locator
  /** Why a run changed nothing (absent when it changed something). */
  readonly budgetNoChange: Locator
  readonly budgetBarBefore: Locator
  readonly budgetBarAfter: Locator
  readonly budgetTable: Locator
  readonly invariants: Locator

  constructor(page: Page) {
    this.page = page
    const id = (testId: string) => page.getByTestId(testId)
    this.app = id(TID.app)
    this.pasteBox = id(TID.pasteBox)
    this.loadButton = id(TID.loadButton)
    this.fileInput = id(TID.fileInput)
    this.samplePicker = id(TID.samplePicker)
    this.detectedFormat = id(TID.detectedFormat)
    this.formatConfidence = id(TID.formatConfidence)
    this.formatEvidence = id(TID.formatEvidence)
    this.formatOverride = id(TID.formatOverride)
    this.totalTokens = id(TID.totalTokens)
    this.tokenizerSelect = id(TID.tokenizerSelect)
    this.loadError = id(TID.loadError)
    this.warnings = id(TID.warnings)
    this.preview = id(TID.preview)
    this.sourceLine = id(TID.sourceLine)
    this.otherFiles = id(TID.otherFiles)
    this.privacyNote = id(TID.privacyNote)
    this.themeToggle = id(TID.themeToggle)
    this.compaction = id(TID.compaction)
    this.presetPicker = id(TID.presetPicker)
    this.runStatus = id(TID.runStatus)
    this.budgetHeadline = id(TID.budgetHeadline)
    this.budgetNoChange = id(TID.budgetNoChange)
    this.budgetBarBefore = id(TID.budgetBarBefore)
    this.budgetBarAfter = id(TID.budgetBarAfter)
    this.budgetTable = id(TID.budgetTable)
    this.invariants = id(TID.invariants)
  }

  /**
   * Record every text the total-tokens figure shows, from the very first paint. A
   * MutationObserver sees each React commit, so a short-lived estimate cannot slip between polls.
   * Call before `open()`.
   */
  async recordTotalTokens(): Promise<void> {
    await this.page.addInitScript((testId: string) => {
      const history: string[] = []
      Object.assign(window, { __totalTokenHistory: history })
      const record = () => {
        const text = document.querySelector(`[data-testid="${testId}"]`)?.textContent
        if (text && history[history.length - 1] !== text) history.push(text)
      }
      new MutationObserver(record).observe(document, {
        subtree: true,
        childList: true,
        characterData: true,
      })
    }, TID.totalTokens)
  }

  async totalTokenHistory(): Promise<string[]> {
    return this.page.evaluate(
      () => (window as unknown as { __totalTokenHistory?: string[] }).__totalTokenHistory ?? [],
    )
  }

  async open(): Promise<void> {
    await this.page.goto('/')
  }

  /**
   * Show one of the workbench's views (header tabs): the overview (counts, tokens, accounting,
   * strip), the sweep, the comparison, or the groups (timeline, list, detail).
   */
  async showView(view: 'groups' | 'overview' | 'sweep' | 'compare'): Promise<void> {
    const tab = this.page.locator(`[data-testid="${TID.viewTab}"][data-view="${view}"]`)
    await tab.click()
    await expect(tab).toHaveAttribute('aria-current', 'page')
  }

  count(key: CountKey): Locator {
    return this.page.getByTestId(countTestId(key))
  }

  async countValue(key: CountKey): Promise<number> {
    return Number(await this.count(key).getAttribute('data-value'))
  }

  /** Type into the paste box and press Load. */
  async paste(text: string): Promise<void> {
    await this.pasteBox.fill(text)
    await this.loadButton.click()
  }

  /** Paste and load with the keyboard shortcut instead of the button. */
  async pasteWithShortcut(text: string): Promise<void> {
    await this.pasteBox.fill(text)
    await this.pasteBox.press('ControlOrMeta+Enter')
  }

  async pickFiles(paths: string[]): Promise<void> {
    await this.fileInput.setInputFiles(paths)
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

  async expectStatus(status: 'idle' | 'loading' | 'loaded' | 'error'): Promise<void> {
    await expect(this.app).toHaveAttribute('data-status', status)
  }

  async expectLoaded(format: string): Promise<void> {
    await this.expectStatus('loaded')
    await expect(this.detectedFormat).toHaveText(format)
  }

  /** Wait until the exact o200k_base total replaced the estimate. */
  async expectExactTotal(tokenizer = 'o200k_base'): Promise<void> {
    await expect(this.totalTokens).toHaveAttribute('data-tokenizer', tokenizer)
    await expect(this.totalTokens).toHaveAttribute('data-exact', 'true')
  }

  /** The reserved-output segment of one budget bar. */
  reservedSegment(bar: 'before' | 'after'): Locator {
    const parent = bar === 'before' ? this.budgetBarBefore : this.budgetBarAfter
    return parent.getByTestId(TID.budgetReserved)
  }

  /** Pick a compaction preset with the keyboard-usable select. */
  async choosePreset(id: string): Promise<void> {
    await this.presetPicker.selectOption(id)
  }

  /** Wait until a finished run of `preset` is on screen. */
  async expectRun(preset: string): Promise<void> {
    await expect(this.runStatus).toHaveAttribute('data-status', 'done')
    await expect(this.budgetHeadline).toHaveAttribute('data-config', preset)
    // The first run prices with the estimate while the exact count is under way: wait for the
    // run on exact counts, so figures read now are the ones that stay.
    await expect(this.budgetHeadline).not.toHaveAttribute('data-tokenizer', 'estimate')
    await expect(this.runStatus).toHaveAttribute('data-status', 'done')
    await this.expectSettled()
  }

  /**
   * Wait until the shown run is settled: an edit paints its first round, and the idempotence
   * round follows (`settle`); when that round changes something the figures move once more.
   */
  async expectSettled(): Promise<void> {
    await expect(this.invariants).not.toHaveAttribute('data-ok', 'pending')
  }

  /** Context tokens before and after the shown run, as the headline states them. */
  async runTotals(): Promise<{ before: number; after: number }> {
    await this.expectSettled()
    const before = Number(await this.budgetHeadline.getAttribute('data-before'))
    const after = Number(await this.budgetHeadline.getAttribute('data-after'))
    return { before, after }
  }
}

/** Grouped table (features/table): its own small page object, built from the app page. */
export class GroupTableSection {
  readonly root: Locator
  /** The focusable scroll container (`data-rows` = rows after filtering). */
  readonly scroll: Locator
  readonly rows: Locator
  readonly statusPills: Locator
  readonly page: Page

  constructor(page: Page) {
    this.page = page
    this.root = page.getByTestId(TID.groupTable)
    this.scroll = this.root.locator('.gt-scroll')
    this.rows = page.getByTestId(TID.groupRow)
    this.statusPills = this.rows.getByTestId(TID.groupStatus)
  }

  filter(id: string): Locator {
    return this.page.locator(`[data-testid="${TID.groupFilter}"][data-filter="${id}"]`)
  }

  async filterCount(id: string): Promise<number> {
    return Number(await this.filter(id).getAttribute('data-count'))
  }
}
