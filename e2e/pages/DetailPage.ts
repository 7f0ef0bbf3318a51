import { expect, type Locator, type Page } from '@playwright/test'
import { TID } from '../../src/ui/testids.ts'

type Tab = 'pretty' | 'raw' | 'diff' | 'why' | 'tokens'

/** The detail drawer (features/detail), driven by user intent. */
export class DetailPage {
  readonly page: Page
  readonly drawer: Locator
  readonly close: Locator
  readonly panel: Locator
  readonly status: Locator
  readonly tokens: Locator
  readonly parts: Locator
  readonly more: Locator
  readonly raw: Locator
  readonly diffParts: Locator
  readonly decisions: Locator
  readonly tokenRows: Locator
  readonly rows: Locator
  /** The Why tab's removed-then-used warning, and the strings it names. */
  readonly usedLater: Locator
  readonly usedLaterEvidence: Locator

  constructor(page: Page) {
    this.page = page
    const id = (testId: string) => page.getByTestId(testId)
    this.drawer = id(TID.detailDrawer)
    this.close = id(TID.detailClose)
    this.panel = id(TID.detailPanel)
    this.status = id(TID.detailStatus)
    this.tokens = id(TID.detailTokens)
    this.parts = this.panel.getByTestId(TID.detailPart)
    this.more = this.panel.getByTestId(TID.detailMore)
    this.raw = this.panel.getByTestId(TID.detailRaw)
    this.diffParts = this.panel.getByTestId(TID.detailDiffPart)
    this.decisions = this.panel.getByTestId(TID.detailDecision)
    this.tokenRows = this.panel.getByTestId(TID.detailTokenRow)
    this.rows = id(TID.groupRow)
    this.usedLater = this.panel.getByTestId(TID.detailUsedLater)
    this.usedLaterEvidence = this.usedLater.getByTestId(TID.detailUsedLaterEvidence)
  }

  tab(tab: Tab): Locator {
    return this.drawer.locator(`[data-testid="${TID.detailTab}"][data-tab="${tab}"]`)
  }

  /** Open a group from its table row (double click opens the drawer). */
  async openRow(row: Locator): Promise<string> {
    const group = await row.getAttribute('data-group')
    if (!group) throw new Error('row without a group id')
    await row.dblclick()
    await this.expectShowing(group)
    return group
  }

  async expectShowing(group: string): Promise<void> {
    await expect(this.drawer).toBeVisible()
    await expect(this.drawer).toHaveAttribute('data-group', group)
    await expect(this.drawer).toHaveAttribute('data-state', 'ready')
  }

  async show(tab: Tab): Promise<void> {
    await this.tab(tab).click()
    await expect(this.tab(tab)).toHaveAttribute('aria-selected', 'true')
    await expect(this.panel).toHaveAttribute('data-tab', tab)
  }

  /** Tokens before and after as the header states them. */
  async totals(): Promise<{ before: number; after: number }> {
    return {
      before: Number(await this.tokens.getAttribute('data-before')),
      after: Number(await this.tokens.getAttribute('data-after')),
    }
  }
}
