import { TID } from '../src/ui/testids.ts'
import { expect, test } from './fixtures.ts'
import type { AppPage } from './pages/AppPage.ts'
import { ConfigPage } from './pages/ConfigPage.ts'

/** Open the sample and wait for its run with `preset` and for the editor's forms. */
async function ready(app: AppPage, preset = 'recommended'): Promise<ConfigPage> {
  const config = new ConfigPage(app.page)
  await app.open()
  await app.expectExactTotal()
  await app.expectRun('recommended')
  if (preset !== 'recommended') {
    await app.choosePreset(preset)
    await app.expectRun(preset)
  }
  await config.expectReady()
  return config
}

async function afterTokens(app: AppPage): Promise<number> {
  return (await app.runTotals()).after
}

test.describe('config editor', () => {
  test('editing a trigger or the window size re-runs; the budget and the delta line follow', async ({
    app,
  }) => {
    const config = await ready(app)
    await expect(config.field('window.contextTokens')).toHaveValue('200000')
    await expect(config.field('pipeline[0].trigger.conditions[0].over')).toHaveValue('0.5')
    const { before, after: first } = await app.runTotals()
    expect(first).toBeLessThan(before)

    // A higher trigger: the first step (which alone brings this sample under its target) now
    // waits for 95 % of the usable window, which the sample never reaches: nothing is compacted.
    await expect(app.budgetNoChange).toHaveCount(0)
    await config.setField('pipeline[0].trigger.conditions[0].over', '0.95')
    await expect(app.budgetHeadline).toHaveAttribute('data-after', String(before))
    // …and the headline says why (issue 12).
    await expect(app.budgetNoChange).toContainText('Nothing changed: not triggered at')
    await expect(app.runStatus).toHaveAttribute('data-status', 'done')
    const second = await afterTokens(app)
    await expect(config.delta).toBeVisible()
    await expect(config.delta).toHaveAttribute('data-after-change', String(second - first))
    expect(Number(await config.delta.getAttribute('data-groups-changed'))).toBeGreaterThan(0)
    await expect(config.delta).toContainText('groups changed status')
    await expect(config.stepOutcome(0)).toHaveAttribute('data-status', 'not_triggered')
    const steps = (await config.jsonValue()).pipeline as { trigger: unknown }[]
    expect(steps[0]?.trigger).toEqual({
      mode: 'any',
      conditions: [{ kind: 'window_fraction', over: 0.95 }],
    })

    // A smaller window: every window-fraction trigger and target shrinks with it.
    await config.setField('window.contextTokens', '60000')
    await expect(app.budgetHeadline).not.toHaveAttribute('data-after', String(second))
    await expect.poll(() => config.usable()).toBe(40000)
    const third = await afterTokens(app)
    expect(third).toBeLessThan(second)
    await expect(config.delta).toHaveAttribute('data-after-change', String(third - second))
    // The JSON view follows the form.
    expect((await config.jsonValue()).window).toMatchObject({ contextTokens: 60000 })
  })

  test('an invalid value is flagged at its field and the last valid result stays', async ({
    app,
  }) => {
    const config = await ready(app)
    const { before, after } = await app.runTotals()

    await config.setField('window.contextTokens', '-5')
    const error = config.fieldError('window.contextTokens')
    await expect(error).toBeVisible()
    await expect(error).toHaveAttribute('role', 'alert') // the worker's verdict, not only ours
    await expect(config.issues).toContainText('window.contextTokens')
    await expect(app.runStatus).toHaveAttribute('data-status', 'error')
    await expect(app.budgetHeadline).toHaveAttribute('data-after', String(after))
    await expect(app.budgetHeadline).toHaveAttribute('data-before', String(before))

    // Fixing it runs again and clears the errors.
    await config.setField('window.contextTokens', '200000')
    await expect(app.runStatus).toHaveAttribute('data-status', 'done')
    await expect(error).toHaveCount(0)
    await expect(config.issues).toHaveCount(0)
  })

  test('the JSON view drives the forms; invalid JSON says where and runs nothing', async ({
    app,
  }) => {
    const config = await ready(app)
    const value = await config.jsonValue()
    const pipeline = value.pipeline as { params: Record<string, unknown> }[]
    const keep = pipeline[1]?.params
    expect(keep).toHaveProperty('keep', 8)
    await config.setJson({
      ...value,
      window: { contextTokens: 150000, reservedOutput: 10000, buffer: 0 },
      pipeline: pipeline.map((step, i) =>
        i === 1 ? { ...step, params: { ...keep, keep: 2 } } : step,
      ),
    })
    await expect(config.field('window.contextTokens')).toHaveValue('150000')
    await expect(config.field('window.reservedOutput')).toHaveValue('10000')
    await config.step(1).getByText('Parameters').click()
    await expect(config.field('pipeline[1].params.keep')).toHaveValue('2')
    await expect.poll(() => config.usable()).toBe(140000)

    const shown = await app.runTotals()
    await config.json.fill('{\n  "version": 1,\n  "window": {\n}')
    await expect(config.jsonError).toBeVisible()
    await expect(config.jsonError).toHaveAttribute('data-line', '4')
    await expect(config.jsonError).toContainText('Line 4, column')
    // Nothing ran: the form and the budget still show the last valid config.
    await expect(config.field('window.contextTokens')).toHaveValue('150000')
    await expect(app.runStatus).toHaveAttribute('data-status', 'done')
    expect(await app.runTotals()).toEqual(shown)
  })

  test('disabling a step removes its effect; enabling it brings it back', async ({ app }) => {
    const config = await ready(app, 'anthropic-clear-tool-uses')
    const { before, after } = await app.runTotals()
    expect(after).toBeLessThan(before)
    await expect(config.stepOutcome(0)).toHaveAttribute('data-status', 'ran')

    await config.stepButton(0, 'enabled').uncheck()
    await expect(app.budgetHeadline).toHaveAttribute('data-after', String(before))
    await expect(config.stepOutcome(0)).toHaveAttribute('data-status', 'disabled')
    await expect(config.step(0)).toHaveAttribute('data-enabled', 'false')
    await expect(config.delta).toHaveAttribute('data-after-change', String(before - after))

    await config.stepButton(0, 'enabled').check()
    await expect(app.budgetHeadline).toHaveAttribute('data-after', String(after))
  })

  test('steps reorder with the buttons and the keyboard; the JSON follows', async ({ app }) => {
    const config = await ready(app)
    const order = ['supersede-stale-results', 'clear-tool-uses', 'summarize']
    expect(await config.strategies()).toEqual(order)

    await config.stepButton(0, 'down').click()
    await expect.poll(() => config.strategies()).toEqual([order[1], order[0], order[2]])
    const json = await config.jsonValue()
    expect((json.pipeline as { strategy: string }[]).map((s) => s.strategy)).toEqual([
      order[1],
      order[0],
      order[2],
    ])
    await expect(app.runStatus).toHaveAttribute('data-status', 'done')

    // From the keyboard: the focus stays on the moved step, so Enter twice moves it twice.
    await config.stepButton(2, 'up').focus()
    await app.page.keyboard.press('Enter')
    await expect.poll(() => config.strategies()).toEqual([order[1], order[2], order[0]])
    await app.page.keyboard.press('Enter')
    await expect.poll(() => config.strategies()).toEqual([order[2], order[1], order[0]])
    await expect(config.stepButton(0, 'up')).toBeDisabled()
  })

  test('picking a preset loads it into the editor; reset undoes edits', async ({ app }) => {
    const config = await ready(app)
    await app.choosePreset('lip')
    await app.expectRun('lip')
    expect(await config.strategies()).toEqual(['supersede-stale-results'])
    await expect(config.reset).toBeDisabled()
    const edited = app.page.getByTestId(TID.configEdited)
    await expect(edited).toHaveCount(0)

    await config.addStrategy.selectOption('clear-tool-uses')
    await config.addStep.click()
    await expect
      .poll(() => config.strategies())
      .toEqual(['supersede-stale-results', 'clear-tool-uses'])
    await expect(config.reset).toBeEnabled()
    // The preset picker says the run no longer uses the preset as shipped.
    await expect(edited).toBeVisible()
    await config.stepButton(1, 'remove').click()
    await config.stepButton(0, 'remove').click()
    await expect(config.steps).toHaveCount(0)

    await config.reset.click()
    await expect.poll(() => config.strategies()).toEqual(['supersede-stale-results'])
    await expect(app.presetPicker).toHaveValue('lip')
    await expect(edited).toHaveCount(0)
  })
})
