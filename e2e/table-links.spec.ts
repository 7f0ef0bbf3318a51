import { TID } from '../src/ui/testids.ts'
import { expect, test } from './fixtures.ts'
import { chatBody, TablePage } from './pages/TablePage.ts'

test.describe('table filter grammar', () => {
  test('status:stubbed tool:read narrows the rows; a bad query shows where it fails', async ({
    app,
  }) => {
    const table = new TablePage(app.page)
    await app.open()
    await app.choosePreset('anthropic-clear-tool-uses')
    await app.expectRun('anthropic-clear-tool-uses')
    const all = await table.shown()
    expect(all).toBeGreaterThan(100)

    await table.filter('status:stubbed tool:read')
    await expect.poll(() => table.shown()).toBeLessThan(all)
    const narrowed = await table.shown()
    expect(narrowed).toBeGreaterThan(0)
    await expect(table.count).toHaveAttribute('data-shown', String(narrowed))
    for (const status of await table.column('gt-status-cell')) expect(status).toBe('stubbed')
    for (const tool of await table.column('gt-tool')) expect(tool.toLowerCase()).toContain('read')

    // Negation: the complement within stubbed rows.
    await table.filter('status:stubbed -tool:read')
    await expect.poll(() => table.shown()).not.toBe(narrowed)
    for (const tool of await table.column('gt-tool'))
      expect(tool.toLowerCase()).not.toContain('read')

    // A query that does not parse: an error with its position, nothing filtered, no throw.
    await table.filter('tool:read status:stubb')
    await expect(table.queryError).toBeVisible()
    await expect(table.queryError).toContainText('unknown status "stubb"')
    await expect(table.queryError).toHaveAttribute('data-position', '17')
    await expect(table.query).toHaveAttribute('aria-invalid', 'true')
    await expect.poll(() => table.shown()).toBe(all)

    // Fixing it clears the error; the help popover lists the grammar.
    await table.filter('tokens>1000')
    await expect(table.queryError).toHaveCount(0)
    for (const before of await table.column('gt-before')) {
      expect(Number(before.replaceAll(',', ''))).toBeGreaterThan(1000)
    }
    await table.queryHelp.locator('summary').click()
    await expect(table.queryHelp).toContainText('index:10..20')
  })

  test('columns can be hidden, and stay hidden after a reload', async ({ app }) => {
    const table = new TablePage(app.page)
    await app.open()
    await app.expectRun('recommended')
    await expect(table.rows.first().locator('td.gt-resource')).toHaveCount(1)
    await table.columns.locator('summary').click()
    await table.columnToggle('resource').uncheck()
    await expect(table.rows.first().locator('td.gt-resource')).toHaveCount(0)
    await expect(table.root.locator('th.gt-resource')).toHaveCount(0)

    await app.page.reload()
    await app.expectRun('recommended')
    await expect(table.rows.first()).toBeVisible()
    await expect(table.rows.first().locator('td.gt-resource')).toHaveCount(0)
    await table.columns.locator('summary').click()
    await expect(table.columnToggle('resource')).not.toBeChecked()
    await table.columnToggle('resource').check()
    await expect(table.rows.first().locator('td.gt-resource')).toHaveCount(1)
  })
})

test.describe('rows, selection and the linked views', () => {
  test('expanding a row shows its messages and parts', async ({ app }) => {
    const table = new TablePage(app.page)
    await app.open()
    await app.expectRun('recommended')
    await table.filter('kind:tool_call')
    const row = table.rows.first()
    await expect(row).toBeVisible()
    const group = (await row.getAttribute('data-group')) ?? ''
    await row.getByTestId(TID.rowExpand).click()
    await expect(row.getByTestId(TID.rowExpand)).toHaveAttribute('aria-expanded', 'true')
    const parts = app.page.locator(`[data-testid="${TID.groupSubRow}"][data-group="${group}"]`)
    // A tool-call group holds the call and its result: at least two parts, none an error.
    await expect(parts.locator('xpath=self::*[@data-part]')).not.toHaveCount(0)
    expect(await parts.count()).toBeGreaterThanOrEqual(2)
    await expect(parts.filter({ has: app.page.locator('[role="alert"]') })).toHaveCount(0)
    await expect(parts.first()).toContainText('assistant')
    // Expanding does not select; collapsing removes the parts.
    await expect(row).toHaveAttribute('aria-selected', 'false')
    await row.getByTestId(TID.rowExpand).click()
    await expect(parts).toHaveCount(0)
  })

  test('click selects a row; a strip segment selects its row and scrolls to it', async ({
    app,
  }) => {
    const table = new TablePage(app.page)
    await app.open()
    await app.expectRun('recommended')
    const second = table.rows.nth(1)
    await second.click()
    await expect(second).toHaveAttribute('aria-selected', 'true')
    await expect(second).toHaveAttribute('data-selected', 'true')
    await expect(table.selectedRow).toHaveCount(1)

    // A wide segment late in the before band (the strip is in the overview): its row starts far
    // below the table's view; picking it shows the groups view with that row.
    await app.showView('overview')
    const before = table.strip.getByTestId(TID.stripBefore)
    const segments = before.locator(`[data-testid="${TID.stripSegment}"][data-group]`)
    const count = await segments.count()
    expect(count).toBeGreaterThan(10)
    const target = segments.nth(count - 2)
    const group = (await target.getAttribute('data-group')) ?? ''
    await target.click({ force: true })
    await expect(table.row(group)).toBeVisible()
    await expect(table.row(group)).toHaveAttribute('aria-selected', 'true')
    await expect(before.getByTestId(TID.stripSelected)).toHaveCount(1)

    // Zoom in and out with the buttons; the pan slider becomes usable when zoomed.
    await app.showView('overview')
    const pan = table.strip.getByTestId(TID.stripPan)
    await expect(pan).toBeDisabled()
    await table.strip.getByTestId(TID.stripZoomIn).click()
    await table.strip.getByTestId(TID.stripZoomIn).click()
    await expect(pan).toBeEnabled()
    await pan.focus()
    await app.page.keyboard.press('End')
    expect(Number(await pan.inputValue())).toBeGreaterThan(0)
    await table.strip.getByTestId(TID.stripZoomReset).click()
    await expect(pan).toBeDisabled()
  })

  test('keys move the selection through the rows as sorted, and the table follows', async ({
    app,
  }) => {
    const table = new TablePage(app.page)
    await app.open()
    await app.expectRun('recommended')
    // Sort by tokens before (largest first): "last row" is then the smallest group.
    await table.root.getByRole('button', { name: /^Before/ }).click()
    await table.rows.first().click()
    await app.page.keyboard.press('Shift+G')
    const last = table.selectedRow
    await expect(last).toBeVisible()
    const rows = await table.shown()
    await expect(last).toHaveAttribute('aria-rowindex', String(rows + 1))
    // Right arrow expands the selected row, left collapses it.
    await table.scroll.focus()
    await app.page.keyboard.press('ArrowRight')
    await expect(last.getByTestId(TID.rowExpand)).toHaveAttribute('aria-expanded', 'true')
    await app.page.keyboard.press('ArrowLeft')
    await expect(last.getByTestId(TID.rowExpand)).toHaveAttribute('aria-expanded', 'false')
  })

  test('the timeline brush filters the table; clearing the chip restores it', async ({ app }) => {
    const table = new TablePage(app.page)
    await app.open()
    await app.expectRun('recommended')
    const all = await table.shown()
    await table.dragBrush(0.3, 0.6)
    await expect(table.brushChip).toBeVisible()
    await expect(table.brushChip).toContainText(/brushed: messages [\d,]+–[\d,]+/)
    const brushed = await table.shown()
    expect(brushed).toBeGreaterThan(0)
    expect(brushed).toBeLessThan(all)
    const from = Number(await table.brushChip.getAttribute('data-from'))
    const to = Number(await table.brushChip.getAttribute('data-to'))
    expect(from).toBeGreaterThan(0)
    expect(to).toBeGreaterThan(from)

    await table.brushChip.getByTestId(TID.tableBrushClear).click()
    await expect(table.brushChip).toHaveCount(0)
    await expect.poll(() => table.shown()).toBe(all)
    await expect(table.timelineChart).toHaveAttribute('data-brush-start', '0')
  })

  test('clicking a call on the timeline selects its group', async ({ app }) => {
    const table = new TablePage(app.page)
    await app.open()
    await app.expectRun('recommended')
    const surface = table.timelineChart.locator('svg.timeline-surface')
    await surface.scrollIntoViewIfNeeded()
    const box = await surface.boundingBox()
    if (!box) throw new Error('no chart')
    // As a user does: hover (the tooltip names the call), then click.
    const at = { x: box.width * 0.5, y: box.height * 0.4 }
    await surface.hover({ position: at })
    await expect(app.page.getByTestId(TID.timelineTooltip)).toBeVisible()
    await surface.click({ position: at })
    await expect(table.selectedRow).toHaveCount(1)
    await expect(table.selectedRow).toBeVisible()
  })

  test('the invariants panel says compactly that every check passes', async ({ app }) => {
    const table = new TablePage(app.page)
    await app.open()
    await app.expectRun('recommended')
    await expect(table.invariants).toHaveAttribute('data-ok', 'true')
    await expect(table.invariants).toContainText(/All \d+ invariant checks pass/)
  })
})

test('a 10,000-pair transcript scrolls with fewer than 300 rows in the DOM', async ({ app }) => {
  test.setTimeout(180_000)
  const table = new TablePage(app.page)
  await app.open()
  await app.expectRun('recommended')
  await app.fileInput.setInputFiles({
    name: 'long-chat.json',
    mimeType: 'application/json',
    buffer: Buffer.from(chatBody(10_000)),
  })
  await app.expectLoaded('openai-chat')
  await expect(app.count('messages')).toHaveAttribute('data-value', '20001', { timeout: 60_000 })
  await expect(app.runStatus).toHaveAttribute('data-status', 'done', { timeout: 90_000 })
  await expect.poll(() => table.shown(), { timeout: 60_000 }).toBeGreaterThanOrEqual(10_000)
  for (const fraction of [0, 0.25, 0.5, 0.75, 1]) {
    await table.scrollTo(fraction)
    await expect(table.rows.first()).toBeVisible()
    expect(await table.domRows()).toBeLessThan(300)
  }
  // At the bottom the last group is drawn.
  const last = await table.rows.last().getAttribute('aria-rowindex')
  expect(Number(last)).toBe((await table.shown()) + 1)
  // Expanding rows keeps the window small too.
  await table.rows.last().getByTestId(TID.rowExpand).click()
  await expect(table.subRows.first()).toBeVisible()
  expect((await table.domRows()) + (await table.subRows.count())).toBeLessThan(300)
})

/** A Claude Code session that was compacted once upstream (a compact boundary + its summary). */
function compactedSession(): string {
  const lines: object[] = []
  let parent: string | null = null
  const push = (type: 'user' | 'assistant', content: string, extra: object = {}) => {
    const uuid = `${type[0]}${lines.length}`
    lines.push({
      type,
      uuid,
      parentUuid: parent,
      sessionId: 's1',
      timestamp: '2025-01-01T00:00:00.000Z',
      message: { role: type, content },
      ...extra,
    })
    parent = uuid
  }
  for (let i = 0; i < 4; i++) {
    push('user', `Step ${i}: please continue the refactor of module ${i}.`)
    push('assistant', `Done with module ${i}. ${'Details. '.repeat(40)}`)
  }
  lines.push({
    type: 'system',
    subtype: 'compact_boundary',
    uuid: 'b1',
    parentUuid: parent,
    sessionId: 's1',
    timestamp: '2025-01-01T00:00:00.000Z',
    content: 'Conversation compacted',
    compactMetadata: { trigger: 'auto', preTokens: 155000 },
  })
  parent = 'b1'
  push('user', 'This session is being continued from a previous conversation. Summary: …', {
    isCompactSummary: true,
  })
  for (let i = 4; i < 8; i++) {
    push('user', `Step ${i}: please continue the refactor of module ${i}.`)
    push('assistant', `Done with module ${i}. ${'Details. '.repeat(40)}`)
  }
  return lines.map((l) => JSON.stringify(l)).join('\n')
}

test('upstream compactions and trigger levels are marked on the timeline and the strip', async ({
  app,
}) => {
  const table = new TablePage(app.page)
  await app.open()
  await app.expectRun('recommended')
  // Trigger lines: one per token-level trigger of the preset, on both views.
  // The chart sizes itself to its pane first, then draws its lines: wait for them.
  await expect.poll(() => table.strip.getByTestId(TID.stripTrigger).count()).toBeGreaterThan(0)
  const stripTriggers = await table.strip.getByTestId(TID.stripTrigger).count()
  await expect(table.timelineChart.getByTestId(TID.timelineTrigger)).toHaveCount(stripTriggers)

  await app.dropFile('session.jsonl', compactedSession())
  await app.expectLoaded('claude-code')
  await app.expectRun('recommended')
  await expect(table.timelineChart).toHaveAttribute('data-upstream', '1')
  const marker = table.timelineChart.getByTestId(TID.timelineUpstream)
  await expect(marker).toHaveCount(1)
  await expect(marker.locator('title')).toHaveText(/claude-code-boundary.*trigger: auto.*155,000/)
  const stripMarker = table.strip.getByTestId(TID.stripUpstream)
  await expect(stripMarker).toHaveCount(1)
  await expect(stripMarker.locator('title')).toHaveText(/upstream compaction/)
})
