import { readFile } from 'node:fs/promises'
import { expect, type Locator, type Page } from '@playwright/test'
import { TID } from '../../src/ui/testids.ts'

/** A file the Export dialog downloaded: its suggested name and its text. */
export interface Downloaded {
  readonly fileName: string
  readonly text: string
}

/** Export dialog, config import and share link (features/export), by what the user does. */
export class ExportPage {
  readonly page: Page
  readonly openButton: Locator
  readonly dialog: Locator
  readonly target: Locator
  readonly preview: Locator
  readonly summary: Locator
  readonly warnings: Locator
  readonly warning: Locator
  readonly notes: Locator
  readonly copyButton: Locator
  readonly downloadButton: Locator
  readonly copyStatus: Locator
  readonly closeButton: Locator
  readonly importButton: Locator
  readonly importDialog: Locator
  readonly importFile: Locator
  readonly importText: Locator
  readonly importSubmit: Locator
  readonly importIssues: Locator
  readonly shareButton: Locator
  readonly shareStatus: Locator

  constructor(page: Page) {
    this.page = page
    const id = (testId: string) => page.getByTestId(testId)
    this.openButton = id(TID.exportOpen)
    this.dialog = id(TID.exportDialog)
    this.target = id(TID.exportTarget)
    this.preview = id(TID.exportPreview)
    this.summary = id(TID.exportSummary)
    this.warnings = id(TID.exportWarnings)
    this.warning = id(TID.exportWarning)
    this.notes = id(TID.exportNotes)
    this.copyButton = id(TID.exportCopy)
    this.downloadButton = id(TID.exportDownload)
    this.copyStatus = id(TID.exportStatus)
    this.closeButton = id(TID.exportClose)
    this.importButton = id(TID.importOpen)
    this.importDialog = id(TID.importDialog)
    this.importFile = id(TID.importFile)
    this.importText = id(TID.importText)
    this.importSubmit = id(TID.importSubmit)
    this.importIssues = id(TID.importIssue)
    this.shareButton = id(TID.shareCopy)
    this.shareStatus = id(TID.shareStatus)
  }

  async open(): Promise<void> {
    await this.openButton.click()
    await expect(this.dialog).toBeVisible()
  }

  /** Pick what to export and wait until its file is in the preview. */
  async choose(choice: string): Promise<void> {
    await this.target.selectOption(choice)
    await expect(this.preview).toHaveAttribute('data-choice', choice)
    await expect(this.preview).toHaveAttribute('data-state', 'ready')
  }

  /** Press Download and read the file the browser saved. */
  async download(): Promise<Downloaded> {
    const [download] = await Promise.all([
      this.page.waitForEvent('download'),
      this.downloadButton.click(),
    ])
    const path = await download.path()
    return { fileName: download.suggestedFilename(), text: await readFile(path, 'utf8') }
  }

  /** The decisions CSV's checkbox for one column. */
  csvColumn(column: string): Locator {
    return this.page.locator(`[data-testid="${TID.exportCsvColumn}"][data-column="${column}"]`)
  }

  async importConfigFile(path: string): Promise<void> {
    await this.importButton.click()
    await expect(this.importDialog).toBeVisible()
    await this.importFile.setInputFiles(path)
  }

  async importConfigText(text: string): Promise<void> {
    await this.importButton.click()
    await expect(this.importDialog).toBeVisible()
    await this.importText.fill(text)
    await this.importSubmit.click()
  }

  /** Press "Copy share link" and return the link it made. */
  async shareLink(): Promise<string> {
    await this.shareButton.click()
    await expect(this.shareStatus).not.toHaveAttribute('data-url', '')
    return (await this.shareStatus.getAttribute('data-url')) ?? ''
  }
}
