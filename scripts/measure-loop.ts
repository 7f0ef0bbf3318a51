/**
 * A quick check of the app's loop on the built app in Chromium (issue 14, items 2 and 4): a 1 MB
 * paste → budget painted, and a field edit → views updated on a ~10,000-message transcript. For
 * each window, the longest main-thread task the Long Tasks API reports (tasks over 50 ms only)
 * and the longest gap between animation frames. The official figures come from `npm run bench`;
 * this is the quick look while changing the transport. Run after `npx vite build`:
 *
 *   node bin/run-ts.mjs scripts/measure-loop.ts [port]
 */
import { spawn } from 'node:child_process'
import { chromium, type Page } from '@playwright/test'
import { findChromium } from './chromium-path.mjs'
import { generateLargeClaudeCode, generateManyGroupsClaudeCode } from './sample/generate-large.ts'
import { TID } from '../src/ui/testids.ts'

const PORT = Number(process.argv[2] ?? 4231)
/** Another build to measure (e.g. the main branch's, for a before/after on the same machine). */
const OUT_DIR = process.argv[3]
const EDIT_DEBOUNCE_MS = 80

const MONITOR = `(() => {
  const bench = { tasks: [], gaps: [] }
  window.__bench = bench
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) bench.tasks.push({ start: e.startTime, duration: e.duration })
  }).observe({ type: 'longtask', buffered: true })
  let last = performance.now()
  const frame = (now) => { bench.gaps.push({ at: now, gap: now - last }); last = now; requestAnimationFrame(frame) }
  requestAnimationFrame(frame)
})()`

interface Window {
  readonly ms: number
  readonly longestTaskMs: number
  readonly longTasks: number
  readonly longestFrameGapMs: number
}

async function stats(page: Page, from: number, to: number, ms: number): Promise<Window> {
  return page.evaluate(`(() => {
    const a = ${from}, b = ${to}, bench = window.__bench
    const tasks = bench.tasks.filter((t) => t.start + t.duration >= a && t.start <= b)
    const gaps = bench.gaps.filter((g) => g.at >= a && g.at - g.gap <= b)
    return {
      ms: ${Math.round(ms)},
      longestTaskMs: Math.round(tasks.reduce((m, t) => Math.max(m, t.duration), 0)),
      longTasks: tasks.length,
      longestFrameGapMs: Math.round(gaps.reduce((m, g) => Math.max(m, g.gap), 0)),
    }
  })()`)
}

async function when(page: Page, predicate: string, arg: unknown): Promise<number> {
  return page.evaluate(`new Promise((resolve, reject) => {
    const check = ${predicate}, arg = ${JSON.stringify(arg)}, started = performance.now()
    const tick = () => {
      if (check(arg)) resolve(performance.now())
      else if (performance.now() - started > 120000) reject(new Error('timeout'))
      else requestAnimationFrame(tick)
    }
    tick()
  })`)
}

const budgetFor = (name: string) =>
  `(a) => { const s = document.querySelector('[data-testid="${TID.sourceLine}"]'); const h = document.querySelector('[data-testid="${TID.budgetHeadline}"]'); return !!h && !document.querySelector('.budget.stale') && (${JSON.stringify(name)} === '' || (!!s && s.textContent.includes(${JSON.stringify(name)}))) && h.getAttribute('data-before') !== a }`

async function paste(page: Page, text: string): Promise<Window> {
  const before = await page.getByTestId(TID.budgetHeadline).getAttribute('data-before')
  // The text reaches the page first (a script of its own), so parsing it is not in the window.
  await page.evaluate(`window.__paste = ${JSON.stringify(text)}`)
  await page.evaluate('window.__bench.tasks.length = 0')
  const t0 = await page.evaluate<number>(`(() => {
    const box = document.querySelector('[data-testid="${TID.pasteBox}"]')
    const dt = new DataTransfer()
    dt.setData('text/plain', window.__paste)
    const started = performance.now()
    box.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }))
    window.__pasteHandlerMs = performance.now() - started
    return started
  })()`)
  const handlerMs = await page.evaluate<number>('window.__pasteHandlerMs')
  console.log(`  the paste event itself (handler, encode, post): ${handlerMs.toFixed(1)} ms`)
  const t1 = await when(page, budgetFor(''), before)
  return stats(page, t0, t1, t1 - t0)
}

/** Drop `text` as a file (works in every build, before and after the paste interception). */
async function drop(page: Page, text: string): Promise<void> {
  const before = await page.getByTestId(TID.budgetHeadline).getAttribute('data-before')
  await page.evaluate(`window.__drop = ${JSON.stringify(text)}`)
  await page.evaluate(`(() => {
    const dt = new DataTransfer()
    dt.items.add(new File([window.__drop], 'many.jsonl', { type: 'application/jsonl' }))
    document.body.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }))
  })()`)
  await when(page, budgetFor('many.jsonl'), before)
}

async function fieldEdit(page: Page, contextTokens: number): Promise<Window> {
  const field = page.locator(`[data-testid="${TID.configField}"][data-path="window.contextTokens"]`)
  const t0 = await page.evaluate<number>('performance.now()')
  await field.fill(String(contextTokens))
  const t1 = await when(
    page,
    `(a) => { const el = document.querySelector('[data-testid="${TID.budgetUsable}"]'); return !!el && Number(el.getAttribute('data-usable')) === a && !document.querySelector('.budget.stale') }`,
    contextTokens - 20_000,
  )
  return stats(page, t0, t1, t1 - t0 - EDIT_DEBOUNCE_MS)
}

const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

async function main(): Promise<void> {
  const executablePath = findChromium()?.path
  if (!executablePath) throw new Error('no Chromium')
  const dir = OUT_DIR ? ['--outDir', OUT_DIR] : []
  const server = spawn('npx', ['vite', 'preview', '--port', String(PORT), '--strictPort', ...dir], {
    stdio: 'ignore',
    detached: true,
  })
  const browser = await chromium.launch({
    executablePath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  })
  try {
    for (let i = 0; i < 50; i++) {
      if (
        await fetch(`http://localhost:${PORT}/`).then(
          (r) => r.ok,
          () => false,
        )
      )
        break
      await new Promise((r) => setTimeout(r, 200))
    }
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } })
    await page.addInitScript({ content: MONITOR })
    await page.goto(`http://localhost:${PORT}/`)
    await page.getByTestId(TID.budgetHeadline).waitFor({ timeout: 60_000 })
    if (!OUT_DIR) {
      const pasted = generateLargeClaudeCode(1_000_000, 5)
      console.log(`paste ${(pasted.length / 1e6).toFixed(2)} MB →`, await paste(page, pasted))
    }
    await drop(page, generateManyGroupsClaudeCode(5_000, 3))
    const messages = await page.getByTestId(`${TID.countPrefix}messages`).textContent()
    const edits: Window[] = []
    for (const w of [180_000, 160_000, 190_000, 170_000, 200_000, 175_000, 185_000])
      edits.push(await fieldEdit(page, w))
    console.log(
      `field edits on ${messages} messages (ms exclude the ${EDIT_DEBOUNCE_MS} ms debounce):`,
    )
    for (const e of edits) console.log('  ', e)
    console.log(
      `median ${median(edits.map((e) => e.ms))} ms; longest task ${edits.reduce((m, e) => Math.max(m, e.longestTaskMs), 0)} ms`,
    )
  } finally {
    await browser.close()
    try {
      if (server.pid) process.kill(-server.pid)
    } catch {
      server.kill()
    }
  }
}

await main()
