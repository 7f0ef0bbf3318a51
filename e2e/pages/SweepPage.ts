import { expect, type Locator, type Page } from '@playwright/test'
import { TID } from '../../src/ui/testids.ts'

/** The sweep and compare panels, driven by what the user does with them. */
export class SweepPage {
  readonly page: Page
  readonly sweep: Locator
  readonly param: Locator
  readonly from: Locator
  readonly to: Locator
  readonly steps: Locator
  readonly run: Locator
  readonly cancel: Locator
  readonly progress: Locator
  readonly chart: Locator
  readonly points: Locator
  readonly compare: Locator
  readonly compareA: Locator
  readonly compareB: Locator
  readonly compareRun: Locator
  readonly compareTable: Locator
  readonly compareRows: Locator
  /** The budget's usable-window line (`data-usable`), to see an applied window. */
  readonly budgetUsable: Locator
  readonly detailDrawer: Locator

  constructor(page: Page) {
    this.page = page
    const id = (testId: string) => page.getByTestId(testId)
    this.sweep = id(TID.sweep)
    this.param = id(TID.sweepParam)
    this.from = id(TID.sweepFrom)
    this.to = id(TID.sweepTo)
    this.steps = id(TID.sweepSteps)
    this.run = id(TID.sweepRun)
    this.cancel = id(TID.sweepCancel)
    this.progress = id(TID.sweepProgress)
    this.chart = id(TID.sweepChart)
    this.points = this.chart.getByTestId(TID.sweepPoint)
    this.compare = id(TID.compare)
    this.compareA = id(TID.compareA)
    this.compareB = id(TID.compareB)
    this.compareRun = id(TID.compareRun)
    this.compareTable = id(TID.compareTable)
    this.compareRows = id(TID.compareRow)
    this.budgetUsable = id(TID.budgetUsable)
    this.detailDrawer = id(TID.detailDrawer)
  }

  /** Choose the parameter and range, then start the sweep. */
  async sweepOver(path: string, from: number, to: number, steps: number): Promise<void> {
    await this.param.selectOption(path)
    await this.from.fill(String(from))
    await this.to.fill(String(to))
    await this.steps.fill(String(steps))
    await this.run.click()
  }

  /** Wait until the chart shows `count` valid points of `path`. */
  async expectPoints(path: string, count: number): Promise<void> {
    await expect(this.chart).toHaveAttribute('data-path', path)
    await expect(this.chart).toHaveAttribute('data-points', String(count))
    await expect(this.points).toHaveCount(count)
  }

  point(value: number): Locator {
    return this.chart.locator(`[data-testid="${TID.sweepPoint}"][data-value="${value}"]`)
  }

  side(id: 'a' | 'b'): Locator {
    return this.page.locator(`[data-testid="${TID.compareSide}"][data-side="${id}"]`)
  }

  /** Compare preset `a` with preset `b` and wait for the result. */
  async comparePresets(a: string, b: string): Promise<void> {
    await this.compareA.selectOption(`preset:${a}`)
    await this.compareB.selectOption(`preset:${b}`)
    await this.compareRun.click()
    await expect(this.compareTable).toBeVisible()
  }
}
