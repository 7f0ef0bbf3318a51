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
  readonly folderButton: Locator
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
    this.folderButton = page.getByTestId(FLEET_TID.folderButton)
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

  /**
   * Make the next "Add a folder…" pick `folder` with these files in it. Playwright cannot answer the
   * browser's native directory picker, so `showDirectoryPicker` is stubbed with a folder of the
   * page's origin-private file system (OPFS), written first: a real `FileSystemDirectoryHandle`
   * that the app walks exactly as a picked one.
   */
  async stubFolderPicker(
    folder: string,
    files: readonly { name: string; content: string }[],
  ): Promise<void> {
    await this.page.evaluate(
      async ({ folder, files }) => {
        const root = await navigator.storage.getDirectory()
        await root.removeEntry(folder, { recursive: true }).catch(() => undefined)
        const dir = await root.getDirectoryHandle(folder, { create: true })
        for (const f of files) {
          const parts = f.name.split('/')
          let at = dir
          for (const p of parts.slice(0, -1)) at = await at.getDirectoryHandle(p, { create: true })
          const handle = await at.getFileHandle(parts.at(-1) as string, { create: true })
          const writable = await handle.createWritable()
          await writable.write(f.content)
          await writable.close()
        }
        Object.assign(window, { showDirectoryPicker: () => Promise.resolve(dir) })
      },
      { folder, files },
    )
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
