import { expect, type Locator, type Page } from '@playwright/test'
import { TID } from '../../src/ui/testids.ts'

/**
 * The grouped table and the views linked to it (timeline brush, strip, invariants panel), driven
 * by what a user does: type a query, drag the brush, click a segment, expand a row.
 */
export class TablePage {
  readonly page: Page
  readonly root: Locator
  readonly scroll: Locator
  readonly rows: Locator
  readonly subRows: Locator
  readonly query: Locator
  readonly queryError: Locator
  readonly queryHelp: Locator
  readonly count: Locator
  readonly brushChip: Locator
  readonly columns: Locator
  readonly timelineChart: Locator
  readonly strip: Locator
  readonly invariants: Locator

  constructor(page: Page) {
    this.page = page
    const id = (testId: string) => page.getByTestId(testId)
    this.root = id(TID.groupTable)
    this.scroll = this.root.locator('.gt-scroll')
    this.rows = id(TID.groupRow)
    this.subRows = id(TID.groupSubRow)
    this.query = id(TID.tableQuery)
    this.queryError = id(TID.tableQueryError)
    this.queryHelp = id(TID.tableQueryHelp)
    this.count = id(TID.tableCount)
    this.brushChip = id(TID.tableBrush)
    this.columns = id(TID.tableColumns)
    this.timelineChart = id(TID.timelineChart)
    this.strip = id(TID.contextStrip)
    this.invariants = id(TID.invariantsPanel)
  }

  row(groupId: string): Locator {
    return this.page.locator(`[data-testid="${TID.groupRow}"][data-group="${groupId}"]`)
  }

  get selectedRow(): Locator {
    return this.page.locator(`[data-testid="${TID.groupRow}"][data-selected="true"]`)
  }

  chip(id: string): Locator {
    return this.page.locator(`[data-testid="${TID.groupFilter}"][data-filter="${id}"]`)
  }

  columnToggle(id: string): Locator {
    return this.columns.locator(`[data-testid="${TID.tableColumnToggle}"][data-column="${id}"]`)
  }

  /** Rows after every filter, as the table states it. */
  async shown(): Promise<number> {
    return Number(await this.scroll.getAttribute('data-rows'))
  }

  async filter(query: string): Promise<void> {
    await this.query.fill(query)
  }

  /** Texts of one column over the rows in the DOM (`td.<className>`). */
  async column(className: string): Promise<string[]> {
    return this.rows.evaluateAll(
      (trs, cls) => trs.map((tr) => tr.querySelector(`td.${cls}`)?.textContent ?? ''),
      className,
    )
  }

  /** Group rows in the DOM right now (the virtualiser keeps only those near the view). */
  async domRows(): Promise<number> {
    return this.rows.count()
  }

  async scrollTo(fraction: number): Promise<void> {
    await this.scroll.evaluate((el, f) => {
      el.scrollTop = (el.scrollHeight - el.clientHeight) * f
    }, fraction)
  }

  /**
   * Drag the timeline brush's two handles with the mouse: the left one to `from` and the right
   * one to `to` (fractions of the brush's width).
   */
  async dragBrush(from: number, to: number): Promise<void> {
    const brush = this.timelineChart.locator('.timeline-brush')
    await brush.scrollIntoViewIfNeeded()
    const box = await brush.locator('.timeline-brush-back').boundingBox()
    if (!box) throw new Error('no brush')
    const travellers = brush.locator('.timeline-brush-handle')
    await expect(travellers).toHaveCount(2)
    const y = box.y + box.height / 2
    const drag = async (handle: Locator, x: number) => {
      const h = await handle.boundingBox()
      if (!h) throw new Error('no brush handle')
      await this.page.mouse.move(h.x + h.width / 2, y)
      await this.page.mouse.down()
      await this.page.mouse.move(x, y, { steps: 8 })
      await this.page.mouse.up()
    }
    await drag(travellers.nth(1), box.x + box.width * to)
    await drag(travellers.nth(0), box.x + box.width * from)
  }
}

/** An OpenAI chat request body of `pairs` user/assistant exchanges (2 × pairs groups). */
export function chatBody(pairs: number): string {
  const messages: { role: string; content: string }[] = [
    { role: 'system', content: 'You are terse.' },
  ]
  for (let i = 0; i < pairs; i++) {
    messages.push({ role: 'user', content: `Question ${i}: what is ${i} + ${i}?` })
    messages.push({ role: 'assistant', content: `It is ${i + i}.` })
  }
  return JSON.stringify({ model: 'gpt-4o', messages })
}
