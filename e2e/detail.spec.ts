import { expect, test } from './fixtures.ts'
import { DetailPage } from './pages/DetailPage.ts'

/** A tool result full of markup: it must show as text, and nothing may run or open a dialog. */
const HOSTILE = '<img src=x onerror=alert(1)> and <script>alert(1)</script> in a tool result'
const LONG = 'line of build output\n'.repeat(400)

const hostileBody = {
  model: 'gpt-4o',
  messages: [
    { role: 'system', content: 'You are a coding agent.' },
    { role: 'user', content: 'Run the build <b>now</b>' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'c1', type: 'function', function: { name: 'bash', arguments: '{"cmd":"make"}' } },
      ],
    },
    { role: 'tool', tool_call_id: 'c1', content: `${HOSTILE}\n${LONG}` },
    { role: 'assistant', content: 'Done.' },
  ],
}

test.describe('detail drawer', () => {
  test('shows a stubbed group: pretty text, the stub in the diff, why, tokens; Esc, Esc closes', async ({
    app,
  }) => {
    const detail = new DetailPage(app.page)
    await app.open()
    await app.expectExactTotal()
    await app.expectRun('recommended')
    await app.choosePreset('anthropic-clear-tool-uses')
    await app.expectRun('anthropic-clear-tool-uses')

    const row = detail.rows.and(app.page.locator('[data-status="stubbed"]')).first()
    await expect(row).toBeVisible()
    await detail.openRow(row)
    await expect(detail.status).toHaveText('stubbed')
    await expect(detail.tab('pretty')).toHaveAttribute('aria-selected', 'true')

    // Pretty: the original parts, with the tool result's text.
    const result = detail.parts.and(app.page.locator('[data-kind="tool_result"]')).first()
    await expect(result).toBeVisible()
    expect((await result.locator('pre').textContent())?.length).toBeGreaterThan(0)

    // Diff: the result is replaced by a stub: its old lines removed, the stub's added.
    await detail.show('diff')
    const replaced = detail.diffParts.and(app.page.locator('[data-diff="replaced"]')).first()
    await expect(replaced).toBeVisible()
    await expect(replaced).toContainText('replaced')
    const removed = (await replaced.locator('.diff-del').allTextContents()).join('\n')
    const added = (await replaced.locator('.diff-add').allTextContents()).join('\n')
    expect(added.length).toBeGreaterThan(1)
    expect(removed.length).toBeGreaterThan(added.length)
    await expect(
      detail.diffParts.and(app.page.locator('[data-diff="unchanged"]')).first(),
    ).toBeVisible()

    // Why: the strategy and its reason.
    await detail.show('why')
    const decision = detail.decisions.and(app.page.locator('[data-kind="stub"]')).first()
    await expect(decision).toHaveAttribute('data-strategy', 'clear-tool-uses')
    await expect(decision).toHaveAttribute('data-reason', 'tool_use_cleared')
    await expect(decision).toContainText('clear-tool-uses')
    await expect(decision).toContainText('tool_use_cleared')

    // Tokens: fewer after than before, for the group and for a part.
    await detail.show('tokens')
    const { before, after } = await detail.totals()
    expect(after).toBeLessThan(before)
    const shrunk = await detail.tokenRows.evaluateAll(
      (trs) => trs.filter((tr) => Number(tr.dataset.after) < Number(tr.dataset.before)).length,
    )
    expect(shrunk).toBeGreaterThan(0)

    // Arrow keys move between tabs; the tab is kept when another group opens.
    await detail.tab('tokens').focus()
    await app.page.keyboard.press('ArrowLeft')
    await expect(detail.tab('why')).toHaveAttribute('aria-selected', 'true')
    await expect(detail.tab('why')).toBeFocused()
    await app.page.keyboard.press('End')
    await expect(detail.tab('tokens')).toHaveAttribute('aria-selected', 'true')

    // A new run refreshes the open drawer: its header names the config it shows.
    await expect(detail.drawer).toContainText('with anthropic-clear-tool-uses')
    await app.choosePreset('recommended')
    await app.expectRun('recommended')
    await expect(detail.drawer).toContainText('with recommended')
    await expect(detail.drawer).toHaveAttribute('data-state', 'ready')

    // The first Esc leaves the detail for the list (it stays shown), the second closes it.
    await detail.drawer.focus()
    await app.page.keyboard.press('Escape')
    await expect(detail.drawer).toBeVisible()
    await expect(detail.drawer).not.toBeFocused()
    await app.page.keyboard.press('Escape')
    await expect(detail.drawer).toHaveCount(0)
  })

  test('markup in a transcript shows as text, long text behind "show more"', async ({ app }) => {
    const detail = new DetailPage(app.page)
    await app.open()
    await app.paste(JSON.stringify(hostileBody))
    await app.expectLoaded('openai-chat')
    await app.expectExactTotal()
    await expect(app.runStatus).toHaveAttribute('data-status', 'done')

    const row = detail.rows.filter({ hasText: 'bash' }).first()
    await detail.openRow(row)
    const result = detail.parts.and(app.page.locator('[data-kind="tool_result"]'))
    await expect(result).toContainText(HOSTILE)
    await expect(detail.drawer.locator('img, script, b')).toHaveCount(0)

    // The result is longer than the first limit: cut, then shown whole on request.
    const text = result.locator('pre')
    expect((await text.textContent())?.length).toBe(4000)
    await detail.more.first().click()
    await expect(text).toHaveText(`${HOSTILE}\n${LONG}`, { useInnerText: false })

    await detail.show('raw')
    await expect(detail.raw.nth(1)).toContainText('<img src=x onerror=alert(1)>')
    await expect(detail.drawer.locator('img, script, b')).toHaveCount(0)

    await detail.close.click()
    await expect(detail.drawer).toHaveCount(0)
  })
})
