import { expect, type Locator, type Page } from '@playwright/test'
import { FLEET_TID } from '../../src/ui/features/fleet/fleetIds.ts'

/** The fleet view (features/fleet): files in, one row per conversation out. */
export class FleetPage {
  readonly page: Page
  readonly view: Locator
  readonly open: Locator
  readonly back: Locator
  readonly rows: Locator
  readonly progress: Locator
  readonly aggregates: Locator
  readonly fileInput: Locator
  readonly folderInput: Locator
  readonly query: Locator

  constructor(page: Page) {
    this.page = page
    this.view = page.getByTestId(FLEET_TID.view)
    this.open = page.getByTestId(FLEET_TID.openFleet)
    this.back = page.getByTestId(FLEET_TID.backToFleet)
    this.rows = page.getByTestId(FLEET_TID.row)
    this.progress = page.getByTestId(FLEET_TID.progress)
    this.aggregates = page.getByTestId(FLEET_TID.aggregates)
    this.fileInput = page.getByTestId(FLEET_TID.fileInput)
    this.folderInput = page.getByTestId(FLEET_TID.folderInput)
    this.query = page.getByTestId(FLEET_TID.query)
  }

  row(name: string): Locator {
    return this.page.locator(`[data-testid="${FLEET_TID.row}"][data-name="${name}"]`)
  }

  /** Drop several files at once, the way a browser does (dragenter → dragover → drop). */
  async dropFiles(files: readonly { name: string; content: string }[]): Promise<void> {
    await this.page.evaluate((files) => {
      const data = new DataTransfer()
      for (const f of files) data.items.add(new File([f.content], f.name))
      for (const type of ['dragenter', 'dragover', 'drop']) {
        const event = new DragEvent(type, { dataTransfer: data, bubbles: true, cancelable: true })
        document.body.dispatchEvent(event)
      }
    }, files)
  }

  /** Wait until every file of the fleet finished (done or failed) and no run is under way. */
  async expectFinished(files: number): Promise<void> {
    await expect(this.progress).toHaveAttribute('data-total', String(files))
    await expect(this.progress).toHaveAttribute('data-running', 'false', { timeout: 120_000 })
    await expect(this.progress).toHaveAttribute('data-done', String(files))
  }

  /** Each row's cells as text, by name. */
  async rowTexts(): Promise<Record<string, string>> {
    return this.rows.evaluateAll((rows) =>
      Object.fromEntries(rows.map((r) => [r.getAttribute('data-name') ?? '', r.textContent ?? ''])),
    )
  }
}
