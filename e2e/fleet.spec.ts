import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { TID } from '../src/ui/testids.ts'
import { expect, test } from './fixtures.ts'
import { ConfigPage } from './pages/ConfigPage.ts'
import { FleetPage } from './pages/FleetPage.ts'
import { riskSession } from './risk-session.ts'
import { compactedClaudeSession } from './sessions.ts'

const CORPUS = resolve(import.meta.dirname, '../../shared/corpus')
const CORPUS_FILES = [
  'openai-chat/tau-bench__gpt-4o-airline__traj3.messages.json',
  'codex/claude-code-transcripts__sample_codex_session.jsonl',
  'claude-code/claude-code-viewer__1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl',
]

/** Three corpus files when the corpus is here, else three generated sessions of our own. */
function threeFiles(): { name: string; content: string }[] {
  if (CORPUS_FILES.every((f) => existsSync(resolve(CORPUS, f))))
    return CORPUS_FILES.map((f) => ({
      name: f.split('/').pop() as string,
      content: readFileSync(resolve(CORPUS, f), 'utf8'),
    }))
  console.warn(`fleet.spec: ${CORPUS} is absent or incomplete; using generated sessions`)
  return [
    { name: 'compacted-session.jsonl', content: compactedClaudeSession() },
    { name: 'risk-session.json', content: riskSession() },
    { name: 'broken.json', content: '{"messages": [' },
  ]
}

test.describe('fleet', () => {
  test('three files dropped at once give three rows; a config change re-runs them; a row opens in the workbench and back', async ({
    app,
    page,
  }) => {
    const fleet = new FleetPage(page)
    const files = threeFiles()
    await app.open()
    await app.expectExactTotal()
    await fleet.open.click()
    await expect(fleet.view).toBeVisible()
    await fleet.dropFiles(files)
    await fleet.expectFinished(files.length)
    await expect(fleet.rows).toHaveCount(3)
    for (const f of files) await expect(fleet.row(f.name)).toBeVisible()
    await expect(fleet.aggregates).toContainText('Conversations')

    // A much smaller window (usable 10k): the files compact differently, and the rows follow.
    const before = await fleet.rowTexts()
    const config = new ConfigPage(page)
    await config.expectReady()
    await config.setField('window.contextTokens', '30000')
    await expect
      .poll(async () => JSON.stringify(await fleet.rowTexts()), { timeout: 60_000 })
      .not.toBe(JSON.stringify(before))
    await fleet.expectFinished(files.length)

    // Open one row: the workbench shows that conversation; back: the fleet is still there.
    const name = files[0]?.name as string
    await fleet.row(name).getByRole('button', { name }).click()
    await expect(fleet.view).toBeHidden()
    await expect(page.getByTestId(TID.sourceLine)).toContainText(name)
    await app.expectStatus('loaded')
    await fleet.back.click()
    await expect(fleet.view).toBeVisible()
    await expect(fleet.rows).toHaveCount(3)
  })

  test('a folder picked with showDirectoryPicker, from the keyboard, gives a row per file', async ({
    app,
    page,
  }) => {
    const fleet = new FleetPage(page)
    const files = threeFiles()
    await app.open()
    await fleet.open.click()
    await expect(fleet.view).toBeVisible()
    // Three files, one in a subfolder, and a hidden one that is not part of the fleet.
    await fleet.stubFolderPicker('picked', [
      { name: files[0]!.name, content: files[0]!.content },
      { name: files[1]!.name, content: files[1]!.content },
      { name: `more/${files[2]!.name}`, content: files[2]!.content },
      { name: '.DS_Store', content: 'x' },
    ])
    // The control is the same button, named as before, reached and pressed from the keyboard.
    const button = page.getByRole('button', { name: 'Add a folder…' })
    await expect(button).toHaveAttribute('data-testid', 'fleet-folder-button')
    await button.focus()
    await page.keyboard.press('Enter')
    await fleet.expectFinished(3)
    await expect(fleet.rows).toHaveCount(3)
    await expect(fleet.row(`picked/${files[0]!.name}`)).toBeVisible()
    await expect(fleet.row(`picked/more/${files[2]!.name}`)).toBeVisible()
  })

  test('a file that is not a transcript fails on its own line; the rest finish', async ({
    app,
    page,
  }) => {
    const fleet = new FleetPage(page)
    await app.open()
    await fleet.open.click()
    // The fleet view is its own chunk: drop once it is on screen, as a user would.
    await expect(fleet.view).toBeVisible()
    await fleet.dropFiles([
      { name: 'good.jsonl', content: compactedClaudeSession() },
      { name: 'bad.json', content: '{"messages": [' },
    ])
    await fleet.expectFinished(2)
    await expect(fleet.row('bad.json')).toHaveAttribute('data-status', 'failed')
    await expect(fleet.row('good.jsonl')).toHaveAttribute('data-status', 'done')
    await fleet.query.fill('format:claude')
    await expect(fleet.rows).toHaveCount(1)
  })

  /**
   * The picker refused or missing: Chromium rejects `showDirectoryPicker` with a SecurityError in
   * a cross-origin iframe (and a policy can do the same); Firefox and Safari have no picker. Either
   * way "Add a folder…" must open the `<input webkitdirectory>` chooser instead, and the folder
   * chosen there gives its rows.
   */
  for (const [how, picker] of [
    [
      'refused (SecurityError)',
      `() => Promise.reject(new DOMException('Cross origin sub frames are not allowed to show a file picker.', 'SecurityError'))`,
    ],
    ['missing', null],
  ] as const)
    test(`the directory picker ${how}: "Add a folder…" opens the folder input, and the folder's files become rows`, async ({
      app,
      page,
    }, testInfo) => {
      await page.addInitScript(
        picker === null
          ? 'delete window.showDirectoryPicker; delete Window.prototype.showDirectoryPicker'
          : `window.showDirectoryPicker = ${picker}`,
      )
      const folder = testInfo.outputPath('chosen')
      mkdirSync(folder, { recursive: true })
      const files = threeFiles()
      for (const f of files) writeFileSync(join(folder, f.name), f.content)
      const fleet = new FleetPage(page)
      await app.open()
      await fleet.open.click()
      await expect(fleet.view).toBeVisible()
      expect(await page.evaluate(() => typeof window.showDirectoryPicker)).toBe(
        picker === null ? 'undefined' : 'function',
      )
      const chooser = page.waitForEvent('filechooser')
      await fleet.folderButton.click()
      const fileChooser = await chooser
      // The folder input, not the files one.
      expect(await fileChooser.element().getAttribute('data-testid')).toBe('fleet-folder-input')
      await fileChooser.setFiles(folder)
      await fleet.expectFinished(files.length)
      await expect(fleet.rows).toHaveCount(files.length)
      for (const f of files) await expect(fleet.row(`chosen/${f.name}`)).toBeVisible()
    })

  test('the directory picker closed by the user (AbortError) opens nothing and adds nothing', async ({
    app,
    page,
  }) => {
    await page.addInitScript(() => {
      const calls = { n: 0 }
      Object.assign(window, {
        __pickerCalls: calls,
        showDirectoryPicker: () => {
          calls.n++
          return Promise.reject(new DOMException('The user aborted a request.', 'AbortError'))
        },
      })
    })
    const fleet = new FleetPage(page)
    await app.open()
    await fleet.open.click()
    await expect(fleet.view).toBeVisible()
    let choosers = 0
    page.on('filechooser', () => choosers++)
    await fleet.folderButton.click()
    await expect
      .poll(() =>
        page.evaluate(() => (window as { __pickerCalls?: { n: number } }).__pickerCalls?.n),
      )
      .toBe(1)
    // The rejection is handled on the next turns of the event loop; a chooser would be opened
    // from there. Wait for the page to go quiet (two frames) rather than for a time.
    await page.evaluate(
      () =>
        new Promise((resolve) =>
          requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve))),
        ),
    )
    expect(choosers).toBe(0)
    await expect(fleet.rows).toHaveCount(0)
    await expect(fleet.progress).toHaveCount(0)
    await expect(page.locator('.fleet-empty')).toBeVisible()
  })
})
