import { spawnSync } from 'node:child_process'
import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import ts from 'typescript'
import { parse as parseYaml } from 'yaml'
import { parsePhpReturnArray } from '../src/export/targets/adachsoft/php-array.testing.ts'
import { TID } from '../src/ui/testids.ts'
import { expect, test } from './fixtures.ts'
import { AppPage } from './pages/AppPage.ts'
import { ExportPage, type Downloaded } from './pages/ExportPage.ts'

const hasPython = spawnSync('python3', ['--version']).status === 0

/** Our config and the seven target systems, with the syntax each download must parse as. */
const CONFIG_EXPORTS = [
  ['compaction-lab', 'json'],
  ['lip', 'yaml'],
  ['opencode', 'jsonc'],
  ['anthropic', 'json'],
  ['falai', 'typescript'],
  ['maf', 'python'],
  ['langchain', 'typescript'],
  ['adachsoft', 'php'],
] as const

/** A config with a small window: the headline and the usable window must follow an import. */
const SMALL = {
  version: 1,
  name: 'imported-small',
  window: { contextTokens: 60_000, reservedOutput: 5_000, buffer: 0 },
  pipeline: [{ strategy: 'clear-tool-uses', params: { triggerInputTokens: 0, keep: 2 } }],
}

async function tempFile(name: string, text: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'cl-export-'))
  const path = join(dir, name)
  await writeFile(path, text)
  return path
}

/** Parse the file as its language: throws (failing the test) when it does not parse. */
async function expectParses(file: Downloaded, language: string): Promise<void> {
  switch (language) {
    case 'json':
      expect(JSON.parse(file.text)).toBeInstanceOf(Object)
      return
    case 'jsonc':
      // opencode.json: the summary as a `//` line, then the JSON opencode loads.
      expect(file.text).toMatch(/^\/\/ opencode /)
      expect(JSON.parse(file.text.slice(file.text.indexOf('\n') + 1))).toBeInstanceOf(Object)
      return
    case 'yaml':
      expect(parseYaml(file.text)).toBeInstanceOf(Object)
      return
    case 'typescript': {
      const out = ts.transpileModule(file.text, {
        reportDiagnostics: true,
        fileName: file.fileName,
      })
      expect(
        out.diagnostics?.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')),
      ).toEqual([])
      return
    }
    case 'python': {
      if (!hasPython) {
        test
          .info()
          .annotations.push({ type: 'note', description: 'python3 missing: py_compile skipped' })
        return
      }
      const path = await tempFile(file.fileName, file.text)
      const run = spawnSync('python3', ['-m', 'py_compile', path], { encoding: 'utf8' })
      expect(run.stderr).toBe('')
      expect(run.status).toBe(0)
      return
    }
    case 'php': {
      expect(file.text.startsWith('<?php')).toBe(true)
      // The params array, or null: "off" when the config has no tool-payload-trim step.
      const params = parsePhpReturnArray(file.text)
      expect(params === null || typeof params === 'object').toBe(true)
      return
    }
    default:
      throw new Error(`no parser for ${language}`)
  }
}

test.describe('export', () => {
  test('our config and each target export downloads a file that parses', async ({ app }) => {
    const ui = new ExportPage(app.page)
    await app.open()
    await app.expectRun('recommended')
    await ui.open()
    for (const [choice, language] of CONFIG_EXPORTS) {
      await ui.choose(choice)
      await expect(ui.preview).toHaveAttribute('data-language', language)
      const file = await ui.download()
      expect(file.fileName, choice).toBe(await ui.preview.getAttribute('data-file'))
      await expectParses(file, language)
      if (choice === 'compaction-lab') {
        expect(JSON.parse(file.text)).toMatchObject({ version: 1, name: 'recommended' })
      } else {
        // What the target will do, in one sentence above the file.
        await expect(ui.summary).toHaveText(/\S/)
        // The recommended preset uses strategies no single target has: the losses are listed.
        const count = Number(await ui.warnings.getAttribute('data-count'))
        expect(count, choice).toBeGreaterThan(0)
        await expect(ui.warning).toHaveCount(count)
        await expect(ui.warning.first()).toHaveAttribute('data-path', /\S/)
      }
    }
    // Highlighting is React spans, and the preview shows the file's own text. (The last file, the
    // adachsoft export of a config without a tool-payload-trim step, is `return null;`: no keys.)
    await ui.choose('compaction-lab')
    await expect(ui.preview.locator('.xp-key').first()).toBeVisible()
  })

  test('a preset exported to its own system carries over without warnings; Copy copies it', async ({
    app,
    context,
    baseURL,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL })
    const ui = new ExportPage(app.page)
    await app.open()
    await app.choosePreset('lip')
    await app.expectRun('lip')
    await ui.open()
    await ui.choose('lip')
    await expect(ui.warnings).toHaveAttribute('data-count', '0')
    await ui.copyButton.click()
    await expect(ui.copyStatus).toHaveAttribute('data-status', 'copied')
    const copied = await app.page.evaluate(() => navigator.clipboard.readText())
    expect(copied).toBe((await ui.download()).text)
    expect(parseYaml(copied)).toHaveProperty('compaction')
  })

  test('the compacted transcript re-imports; the reports are JSON and CSV', async ({ app }) => {
    const ui = new ExportPage(app.page)
    await app.open()
    await app.expectLoaded('claude-code')
    await app.choosePreset('anthropic-clear-tool-uses')
    await app.expectRun('anthropic-clear-tool-uses')
    await ui.open()

    await ui.choose('report-json')
    const report = JSON.parse((await ui.download()).text) as {
      config: { name: string }
      decisions: unknown[]
      tokens: { before: number; after: number }
    }
    expect(report.config.name).toBe('anthropic-clear-tool-uses')
    expect(report.decisions.length).toBeGreaterThan(0)
    expect(report.tokens.after).toBeLessThan(report.tokens.before)

    await ui.choose('report-csv')
    const csv = (await ui.download()).text.split('\r\n')
    expect(csv[0]).toMatch(/^index,kind,strategy,step,groupId,reason,/)
    expect(csv.filter((l) => l !== '').length).toBe(report.decisions.length + 1)
    // The columns are the user's to choose (the CLI's --csv-columns), in the report's order.
    await ui.csvColumn('detail').uncheck()
    await ui.csvColumn('round').check()
    await expect(ui.preview).toHaveAttribute('data-state', 'ready')
    await expect(ui.preview).toContainText('round')
    const chosen = (await ui.download()).text.split('\r\n')
    expect(chosen[0]).toBe(
      'index,kind,strategy,step,round,groupId,reason,tokensBefore,tokensAfter,saved',
    )

    await ui.choose('transcript')
    await expect(ui.preview).toHaveAttribute('data-language', 'jsonl')
    const transcript = await ui.download()
    expect(transcript.fileName).toMatch(/\.compacted\.jsonl$/)
    const lines = transcript.text.split('\n').filter((l) => l.trim() !== '')
    expect(lines.length).toBeGreaterThan(10)
    for (const line of lines) expect(JSON.parse(line)).toBeInstanceOf(Object)

    // And the app reads it back as Claude Code, smaller than the original.
    await ui.closeButton.click()
    const { before } = await app.runTotals()
    await app.pickFiles([await tempFile(transcript.fileName, transcript.text)])
    await app.expectLoaded('claude-code')
    await app.expectExactTotal()
    const total = Number(await app.totalTokens.getAttribute('data-total'))
    expect(total).toBeGreaterThan(0)
    expect(total).toBeLessThan(before)
  })

  test('importing a config file changes the budget; bad configs list their paths', async ({
    app,
  }) => {
    const ui = new ExportPage(app.page)
    await app.open()
    await app.expectRun('recommended')
    const { after: afterBefore } = await app.runTotals()

    await ui.importConfigText(JSON.stringify({ version: 1, window: { contextTokens: -1 } }))
    await expect(ui.importIssues.first()).toBeVisible()
    await expect(ui.importIssues.first()).toHaveAttribute('data-path', /^window|^pipeline/)
    await app.page.keyboard.press('Escape')
    await expect(ui.importDialog).toHaveCount(0)

    await ui.importConfigFile(await tempFile('small.json', JSON.stringify(SMALL)))
    await expect(ui.importDialog).toHaveCount(0)
    await app.expectRun('imported-small')
    await expect(app.page.getByTestId(TID.budgetUsable)).toHaveAttribute('data-usable', '55000')
    const { after } = await app.runTotals()
    expect(after).not.toBe(afterBefore)
  })

  test('a share link opens the same config in a new page', async ({ app, context }) => {
    const ui = new ExportPage(app.page)
    await app.open()
    await app.expectRun('recommended')
    await ui.importConfigFile(await tempFile('small.json', JSON.stringify(SMALL)))
    await app.expectRun('imported-small')

    const link = await ui.shareLink()
    const url = new URL(link)
    expect(url.hash).toMatch(/cfg=z\./)
    // Only the config travels: no filters, no selection, and never transcript text.
    expect([...new URLSearchParams(url.hash.slice(1)).keys()].sort()).toEqual(['cfg', 'preset'])

    const other = new AppPage(await context.newPage())
    await other.page.goto(link)
    await other.expectRun('imported-small')
    await expect(other.page.getByTestId(TID.budgetUsable)).toHaveAttribute('data-usable', '55000')
    expect((await other.runTotals()).after).toBe((await app.runTotals()).after)
  })

  test('the e key opens the dialog; Esc closes it and focus comes back', async ({ app }) => {
    const ui = new ExportPage(app.page)
    await app.open()
    await app.expectRun('recommended')
    // Shortcuts are off while a field has focus: start from the page itself.
    await app.page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur())
    await app.page.keyboard.press('e')
    await expect(ui.dialog).toBeVisible()
    await expect(ui.dialog).toHaveAttribute('aria-modal', 'true')
    await expect(ui.target).toBeFocused()
    await app.page.keyboard.press('Escape')
    await expect(ui.dialog).toHaveCount(0)

    await ui.openButton.click()
    await expect(ui.dialog).toBeVisible()
    await app.page.keyboard.press('Escape')
    await expect(ui.openButton).toBeFocused()
  })
})
