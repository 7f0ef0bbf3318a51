import { TID } from '../src/ui/testids.ts'
import { expect, test } from './fixtures.ts'
import { CommandsPage } from './pages/CommandsPage.ts'

test('a config that breaks an invariant is flagged in the invariants panel', async ({ app }) => {
  // adachsoft's tool-payload-trim reproduced faithfully re-trims its own meta on every pass, so
  // running it again keeps changing the transcript: the idempotence check must fail, visibly.
  const config = {
    version: 1,
    name: 'adachsoft-faithful',
    window: { contextTokens: 200_000, reservedOutput: 8_000 },
    pipeline: [
      {
        strategy: 'tool-payload-trim',
        params: { inputTrimBytes: 100, outputTrimBytes: 100, faithful: true },
      },
    ],
  }
  const ui = new CommandsPage(app.page)
  const token = 'j.' + Buffer.from(JSON.stringify(config)).toString('base64url')
  await ui.open(`preset=adachsoft&cfg=${token}`, 'adachsoft-faithful')

  const panel = app.page.getByTestId(TID.invariantsPanel)
  await expect(panel).not.toHaveAttribute('data-ok', 'true')
  const check = panel.getByTestId(TID.invariantCheck)
  await expect(check).toHaveCount(1)
  await expect(check).toHaveAttribute('data-check', 'idempotent')
  await expect(check).toContainText('does not settle')
  await expect(app.invariants).toHaveAttribute('data-ok', 'false')

  // Back to the preset as shipped (bug fixed): every check passes again.
  await app.choosePreset('adachsoft')
  await app.expectRun('adachsoft')
  await expect(panel).toHaveAttribute('data-ok', 'true')
})
