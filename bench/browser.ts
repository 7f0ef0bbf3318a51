/**
 * Browser-driven figures for the app (issue 4): the built app in real Chromium, driven like a
 * user. (1) Drop a ~10 MB Claude Code transcript: time to the first token total on screen and to
 * the first compaction budget (before → after) painted. (2) On a ~10,000-message transcript, a
 * config change (preset switch, and a field edit in the config editor when present) to the views
 * showing the new run. For each window, the longest main-thread task (Long Tasks API: only tasks
 * over 50 ms are reported) and the longest gap between animation frames.
 *
 * The long-task observer and frame monitor are injected by this script (`addInitScript`), never
 * shipped in the app.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type Browser, type JSHandle, type Page } from '@playwright/test'
import { findChromium } from '../scripts/chromium-path.mjs'
import {
  generateLargeClaudeCode,
  generateManyGroupsClaudeCode,
} from '../scripts/sample/generate-large.ts'
import { readFileSync } from 'node:fs'
import { TID } from '../src/ui/testids.ts'
import { BUDGET_PAINTED } from './start.ts'
import { median, round } from './timing.ts'

/**
 * Where a field edit's time went (medians over the edits, page time): the run request posted →
 * its reply arrived (the worker's round, debounce excluded), the reply's deserialisation on the
 * UI thread (the first `.data` read), and the rest of that message's task (the render of the
 * views that read the summary at once).
 */
export interface ReplySplit {
  readonly workerMs: number
  readonly cloneMs: number
  readonly mainMs: number
}

export interface BrowserWindow {
  readonly ms: number
  /** Longest task the Long Tasks API reported (0 when none exceeded 50 ms). */
  readonly longestTaskMs: number
  readonly longTasks: number
  /** Longest gap between two animation frames during the window. */
  readonly longestFrameGapMs: number
}

export type BrowserResult =
  | {
      readonly kind: 'measured'
      /** Production build, a fresh tab: navigation start → the sample's budget painted (page time). */
      readonly firstView: { readonly runs: readonly number[]; readonly medianMs: number }
      /** Paste of ~1 MB into the paste box (Ctrl+V): until the text is taken, and the longest task. */
      readonly paste: (BrowserWindow & { readonly bytes: number }) | null
      /** The editor's debounce, subtracted from the field-edit median for the figure. */
      readonly debounceMs: number
      readonly drop: {
        readonly bytes: number
        /** The harness handing the file's text to the page (before the drop; not in the figures). */
        readonly handoffMs: number
        readonly firstTotal: BrowserWindow
        readonly firstBudget: BrowserWindow
      }
      readonly edit: {
        readonly messages: number
        readonly bytes: number
        readonly presetSwitch: readonly BrowserWindow[]
        readonly presetSwitchMedian: number
        readonly fieldEdit: readonly EditWindow[] | null
        readonly fieldEditMedian: number | null
        /**
         * One more edit, after a pause: views updated (first round) → the idempotence verdict in
         * (the `settle` follow-up, after the store's quiet time). Null when the app has no such step.
         */
        readonly fieldEditSettle: { readonly painted: number; readonly settled: number } | null
        /** The field edits' run replies, split (null when the split could not be read). */
        readonly fieldEditSplit?: ReplySplit | null
      }
    }
  | { readonly kind: 'skipped'; readonly reason: string }

// The OS picks a free port (scripts/free-port.mjs): a fixed one broke when another preview or a
// second checkout held it.
export const PORT = Number(
  spawnSync(process.execPath, [join(import.meta.dirname, '../scripts/free-port.mjs')], {
    encoding: 'utf8',
  }).stdout.trim(),
)
export const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
]

// Page-side scripts are strings: tsx compiles functions with a `__name` helper the page lacks.

/** Injected before the app: long tasks and frame gaps into `window.__bench`. */
export const MONITOR = `(() => {
  const bench = { tasks: [], gaps: [] }
  window.__bench = bench
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) bench.tasks.push({ start: e.startTime, duration: e.duration })
    }).observe({ type: 'longtask', buffered: true })
  } catch {}
  let last = performance.now()
  const frame = (now) => { bench.gaps.push({ at: now, gap: now - last }); last = now; requestAnimationFrame(frame) }
  requestAnimationFrame(frame)
})()`

/**
 * Injected before the app: every engine request posted and reply received, with the reply's
 * deserialisation and the rest of its task, into `window.__replies` (bench-only, never shipped).
 */
export const REPLY_SPLIT = `(() => {
  const log = []; window.__replies = log
  const W = window.Worker
  window.Worker = class extends W {
    constructor(...a) {
      super(...a)
      const sent = new Map()
      const post = this.postMessage.bind(this)
      this.postMessage = (m, t) => { if (m && m.kind === 'request') sent.set(m.id, performance.now()); return t ? post(m, t) : post(m) }
      this.addEventListener('message', (e) => {
        const t0 = performance.now(); const d = e.data; const t1 = performance.now()
        if (!d || d.kind !== 'reply') return
        const rec = { request: d.request, sent: sent.get(d.id) ?? t0, at: t0, clone: t1 - t0, rest: 0 }
        log.push(rec)
        const ch = new MessageChannel()
        ch.port1.onmessage = () => { rec.rest = performance.now() - t1 }
        ch.port2.postMessage(0)
      })
    }
  }
})()`

/** The medians of the run replies that arrived in one of `windows` (null when none was logged). */
export async function replySplit(
  page: Page,
  windows: readonly (readonly [number, number])[],
): Promise<ReplySplit | null> {
  const replies =
    await page.evaluate<
      { request: string; sent: number; at: number; clone: number; rest: number }[]
    >('window.__replies ?? []')
  const runs = replies.filter(
    (r) => r.request === 'run' && windows.some(([a, b]) => r.at >= a && r.at <= b),
  )
  if (runs.length === 0) return null
  return {
    workerMs: round(median(runs.map((r) => r.at - r.sent)), 1),
    cloneMs: round(median(runs.map((r) => r.clone)), 1),
    mainMs: round(median(runs.map((r) => r.rest)), 1),
  }
}

export async function windowStats(
  page: Page,
  from: number,
  to: number,
): Promise<Omit<BrowserWindow, 'ms'>> {
  return page.evaluate(`(() => {
    const a = ${from}, b = ${to}, bench = window.__bench
    const tasks = bench.tasks.filter((t) => t.start + t.duration >= a && t.start <= b)
    const gaps = bench.gaps.filter((g) => g.at >= a && g.at - g.gap <= b)
    return {
      longestTaskMs: Math.round(Math.max(0, ...tasks.map((t) => t.duration))),
      longTasks: tasks.length,
      longestFrameGapMs: Math.round(Math.max(0, ...gaps.map((g) => g.gap))),
    }
  })()`)
}

/** Resolves (in page time) when `predicate(arg)` first holds, checked every animation frame. */
export async function pageTimeWhen(page: Page, predicate: string, arg: unknown): Promise<number> {
  return page.evaluate(`new Promise((resolve, reject) => {
    const check = ${predicate}
    const arg = ${JSON.stringify(arg)}
    const started = performance.now()
    const tick = () => {
      if (check(arg)) resolve(performance.now())
      else if (performance.now() - started > 120000) reject(new Error('timeout waiting for the page'))
      else requestAnimationFrame(tick)
    }
    tick()
  })`)
}

export const headlineOf = `(tid) => document.querySelector('[data-testid="' + tid + '"]')`

export async function measureDrop(
  page: Page,
  text: string,
): Promise<Extract<BrowserResult, { kind: 'measured' }>['drop']> {
  const sampleBefore = await page.getByTestId(TID.budgetHeadline).getAttribute('data-before')
  // The file is built in the page before the clock starts: handing 10 MB of text from this
  // program to the page over the DevTools protocol is the harness's work, not the app's, and took
  // 1.5 s of the figure at load 10 (a user's drop hands the browser a file it already has).
  const h0 = await page.evaluate<number>('performance.now()')
  const transfer = await dropTransfer(page, text, 'dropped-10mb.jsonl')
  const t0 = await page.evaluate<number>('performance.now()')
  await page.dispatchEvent('body', 'drop', { dataTransfer: transfer })
  const total = pageTimeWhen(
    page,
    `(a) => { const el = (${headlineOf})(a.total); const s = document.querySelector('[data-testid="${TID.sourceLine}"]'); return !!el && !!s && s.textContent.includes('dropped-10mb') }`,
    { total: TID.totalTokens },
  )
  const budget = pageTimeWhen(
    page,
    `(a) => { const s = document.querySelector('[data-testid="${TID.sourceLine}"]'); const el = (${headlineOf})(a.h); return !!s && s.textContent.includes('dropped-10mb') && !!el && !document.querySelector('.budget.stale') && el.getAttribute('data-before') !== a.sample }`,
    { h: TID.budgetHeadline, sample: sampleBefore },
  )
  const [tTotal, tBudget] = await Promise.all([total, budget])
  return {
    bytes: text.length,
    handoffMs: round(t0 - h0, 0),
    firstTotal: { ms: round(tTotal - t0, 0), ...(await windowStats(page, t0, tTotal)) },
    firstBudget: { ms: round(tBudget - t0, 0), ...(await windowStats(page, t0, tBudget)) },
  }
}

/** Drop `text` as a file on the page, as a user dragging it from the desktop would. */
export async function dropFile(page: Page, text: string, name: string): Promise<void> {
  await page.dispatchEvent('body', 'drop', { dataTransfer: await dropTransfer(page, text, name) })
}

/** A DataTransfer holding `text` as a file, built in the page (what a drop event carries). */
function dropTransfer(page: Page, text: string, name: string): Promise<JSHandle> {
  return page.evaluateHandle(
    ([content, fileName]) => {
      // Runs in the page: the DOM constructors exist there, not in this Node program's types.
      const page = globalThis as unknown as {
        DataTransfer: new () => { items: { add(file: unknown): void } }
        File: new (parts: string[], name: string, options: { type: string }) => unknown
      }
      const dt = new page.DataTransfer()
      dt.items.add(new page.File([content], fileName, { type: 'application/jsonl' }))
      return dt
    },
    [text, name] as const,
  )
}

/** Switch the preset picker and wait for the budget headline to show the new config's run. */
export async function presetSwitch(page: Page, preset: string): Promise<BrowserWindow> {
  const t0 = await page.evaluate<number>(`(() => {
    const select = document.querySelector('[data-testid="${TID.presetPicker}"]')
    if (!select) throw new Error('no preset picker')
    const started = performance.now()
    select.value = ${JSON.stringify(preset)}
    select.dispatchEvent(new Event('change', { bubbles: true }))
    return started
  })()`)
  const t1 = await pageTimeWhen(
    page,
    `(a) => { const el = (${headlineOf})(a.h); return !!el && el.getAttribute('data-config') === a.p && !document.querySelector('.budget.stale') }`,
    { h: TID.budgetHeadline, p: preset },
  )
  return { ms: round(t1 - t0, 1), ...(await windowStats(page, t0, t1)) }
}

/** A field edit's window, and the harness's own time before the edit began. */
export interface EditWindow extends BrowserWindow {
  /** Page time of the first `input` event the typed text fired: where the figure starts. */
  readonly inputAt: number
  /** Playwright's `fill` before that event (actionability checks, focus, select): not counted. */
  readonly fillMs: number
}

/** Records the page time of the first `input` event after each reset; returns the time now. */
const FIRST_INPUT = `(() => {
  if (!window.__firstInput) {
    window.__firstInput = { at: null }
    document.addEventListener('input', () => { window.__firstInput.at ??= performance.now() }, true)
  }
  window.__firstInput.at = null
  return performance.now()
})()`

/**
 * Type a new context window into the config editor and wait for the views to show the run:
 * the usable window reflects it and no view is marked stale. Timed from the first `input` event
 * the typing fires, as a user's keystroke would (a capturing listener, so the app's own input
 * handling is inside the figure); Playwright's `fill` before it waits for the field to be stable
 * over animation frames, 25-60 ms of the harness's that the figure used to include. Includes
 * the editor's debounce.
 */
export async function fieldEdit(
  page: Page,
  contextTokens: number,
  reserved: number,
): Promise<EditWindow> {
  const field = page.locator(`[data-testid="${TID.configField}"][data-path="window.contextTokens"]`)
  const before = await page.evaluate<number>(FIRST_INPUT)
  await field.fill(String(contextTokens))
  const t0 = (await page.evaluate<number | null>('window.__firstInput.at')) ?? before
  const t1 = await pageTimeWhen(
    page,
    `(a) => { const el = document.querySelector('[data-testid="' + a.u + '"]'); return !!el && Number(el.getAttribute('data-usable')) === a.usable && !document.querySelector('.budget.stale') }`,
    { u: TID.budgetUsable, usable: contextTokens - reserved },
  )
  return {
    ms: round(t1 - t0, 1),
    ...(await windowStats(page, t0, t1)),
    inputAt: t0,
    fillMs: round(t0 - before, 1),
  }
}

/**
 * One field edit as {@link fieldEdit}, then until the invariants no longer say "checking
 * idempotence" (the settle follow-up is in). Page times from the first input event: painted,
 * settled.
 */
export async function fieldEditSettle(
  page: Page,
  contextTokens: number,
  reserved: number,
): Promise<{ painted: number; settled: number }> {
  const painted = await fieldEdit(page, contextTokens, reserved)
  const t2 = await pageTimeWhen(
    page,
    `(tid) => { const el = document.querySelector('[data-testid="' + tid + '"]'); return !!el && el.getAttribute('data-ok') !== 'pending' }`,
    TID.invariants,
  )
  return { painted: painted.ms, settled: round(t2 - painted.inputAt, 1) }
}

/** A fresh tab on the built app: navigation start → the sample's budget painted (page time). */
export async function firstView(browser: Browser): Promise<number> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } })
  try {
    const page = await context.newPage()
    await page.goto(`http://localhost:${PORT}/`, { waitUntil: 'commit' })
    return round(
      await page.evaluate<number>(
        `new Promise((resolve) => { const tick = () => (${BUDGET_PAINTED}) ? resolve(performance.now()) : requestAnimationFrame(tick); tick() })`,
      ),
      0,
    )
  } finally {
    await context.close()
  }
}

/**
 * Paste ~1 MB into the paste box as a user would (clipboard + Ctrl+V) and watch the main thread:
 * the window runs until the text is taken (in the box, or loaded straight away) plus one second,
 * and reports its longest task. Null when the page has no paste box.
 */
export async function pasteOneMegabyte(
  browser: Browser,
  text: string,
): Promise<(BrowserWindow & { bytes: number }) | null> {
  const context = await browser.newContext({
    viewport: { width: 1440, height: 900 },
    permissions: ['clipboard-read', 'clipboard-write'],
  })
  try {
    const page = await context.newPage()
    await page.addInitScript({ content: MONITOR })
    await page.goto(`http://localhost:${PORT}/`)
    await page.getByTestId(TID.budgetHeadline).waitFor({ timeout: 60_000 })
    const box = page.getByTestId(TID.pasteBox)
    if (!(await box.isVisible())) return null
    await box.focus()
    // A string: the page's `navigator.clipboard` is not in this Node program's types.
    await page.evaluate(`navigator.clipboard.writeText(${JSON.stringify(text)})`)
    const sampleBefore = await page.getByTestId(TID.budgetHeadline).getAttribute('data-before')
    const t0 = await page.evaluate<number>('performance.now()')
    await page.keyboard.press('ControlOrMeta+V')
    const t1 = await pageTimeWhen(
      page,
      `(a) => { const box = document.querySelector('[data-testid="' + a.box + '"]'); const h = document.querySelector('[data-testid="' + a.h + '"]'); return (!!box && box.value.length >= a.min) || (!!h && h.getAttribute('data-before') !== a.sample && !document.querySelector('.budget.stale')) }`,
      {
        box: TID.pasteBox,
        h: TID.budgetHeadline,
        min: Math.floor(text.length * 0.9),
        sample: sampleBefore,
      },
    )
    await page.waitForTimeout(1000)
    const t2 = await page.evaluate<number>('performance.now()')
    const stats = await windowStats(page, t0, t2)
    return { ms: round(t1 - t0, 0), ...stats, bytes: text.length }
  } finally {
    await context.close()
  }
}

/** The config editor's debounce, read from the store's source (one place says it). */
function editDebounceMs(): number {
  const source = readFileSync(join(import.meta.dirname, '../src/store/slices/run.ts'), 'utf8')
  return Number(/EDIT_DEBOUNCE_MS = (\d+)/.exec(source)?.[1] ?? 0)
}

export function startPreview(dist: string): ChildProcess {
  return spawn(
    'npx',
    ['vite', 'preview', '--port', String(PORT), '--strictPort', '--outDir', dist],
    {
      stdio: 'ignore',
      detached: true,
    },
  )
}

export async function waitForServer(url: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    try {
      const res = await fetch(url)
      if (res.ok) return
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200))
  }
  throw new Error(`preview server did not start at ${url}`)
}

export async function benchBrowser(quick: boolean): Promise<BrowserResult> {
  const browserPath = findChromium()?.path
  if (!browserPath)
    return { kind: 'skipped', reason: 'no Chromium found (see scripts/chromium-path.mjs)' }
  const dist = mkdtempSync(join(tmpdir(), 'compaction-lab-bench-'))
  const build = spawnSync(
    'npx',
    ['vite', 'build', '--outDir', dist, '--emptyOutDir', '--logLevel', 'error'],
    {
      stdio: 'inherit',
    },
  )
  if (build.status !== 0) return { kind: 'skipped', reason: 'vite build failed' }
  const server = startPreview(dist)
  const browser = await chromium.launch({ executablePath: browserPath, args: ARGS, headless: true })
  try {
    await waitForServer(`http://localhost:${PORT}/`)
    const views: number[] = []
    for (let i = 0; i < (quick ? 2 : 5); i++) views.push(await firstView(browser))
    console.log(`  production build, sample → budget painted: ${views.join(', ')} ms`)
    const paste = await pasteOneMegabyte(browser, generateLargeClaudeCode(1_000_000, 5))
    console.log(
      paste
        ? `  paste of ${(paste.bytes / 1e6).toFixed(1)} MB: taken in ${paste.ms} ms, longest task ${paste.longestTaskMs} ms`
        : '  paste: no paste box on the first view',
    )
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } })
    await page.addInitScript({ content: MONITOR })
    await page.goto(`http://localhost:${PORT}/`)
    // The built-in sample first: the app is warm, as a user's tab would be.
    await page.getByTestId(TID.budgetHeadline).waitFor({ timeout: 60_000 })

    const big = generateLargeClaudeCode(quick ? 3_000_000 : 10_000_000, 11)
    console.log(`  drop ${(big.length / 1e6).toFixed(1)} MB`)
    const drop = await measureDrop(page, big)

    const many = generateManyGroupsClaudeCode(5_000, 3)
    const manyPage = await browser.newPage({ viewport: { width: 1440, height: 900 } })
    await manyPage.addInitScript({ content: MONITOR })
    await manyPage.addInitScript({ content: REPLY_SPLIT })
    await manyPage.goto(`http://localhost:${PORT}/`)
    await manyPage.getByTestId(TID.budgetHeadline).waitFor({ timeout: 60_000 })
    await dropFile(manyPage, many, 'many-groups.jsonl')
    await pageTimeWhen(
      manyPage,
      `(tid) => Number(document.querySelector('[data-testid="' + tid + '"]')?.textContent?.replace(/\\D/g, '')) > 9000`,
      `${TID.countPrefix}messages`,
    )
    const messages = Number(
      (await manyPage.getByTestId(`${TID.countPrefix}messages`).textContent())?.replace(/\D/g, ''),
    )
    await pageTimeWhen(
      manyPage,
      `(a) => { const el = (${headlineOf})(a.h); return !!el && el.getAttribute('data-config') === 'recommended' && !document.querySelector('.budget.stale') }`,
      { h: TID.budgetHeadline },
    )
    console.log(`  config edits on ${messages} messages`)
    const presets = [
      'lip',
      'recommended',
      'opencode',
      'recommended',
      'anthropic-clear-tool-uses',
      'recommended',
    ]
    const switches: BrowserWindow[] = []
    for (const p of quick ? presets.slice(0, 2) : presets)
      switches.push(await presetSwitch(manyPage, p))
    // Back to the recommended preset (200k window, 20k reserved output), then edit its window.
    await presetSwitch(manyPage, 'recommended')
    const edits: EditWindow[] = []
    const editWindows: [number, number][] = []
    const windows = [180_000, 160_000, 190_000, 170_000, 200_000]
    for (const w of quick ? windows.slice(0, 2) : windows) {
      const from = await manyPage.evaluate<number>('performance.now()')
      const edit = await fieldEdit(manyPage, w, 20_000)
      edits.push(edit)
      editWindows.push([from, from + edit.ms])
    }
    const fieldEditSplit = await replySplit(manyPage, editWindows)
    // A user who pauses: the idempotence verdict follows the painted figures.
    await manyPage.waitForTimeout(1500)
    const settle = await fieldEditSettle(manyPage, 178_000, 20_000)
    return {
      kind: 'measured',
      firstView: { runs: views, medianMs: round(median(views), 0) },
      paste,
      debounceMs: editDebounceMs(),
      drop,
      edit: {
        messages,
        bytes: many.length,
        presetSwitch: switches,
        presetSwitchMedian: round(median(switches.map((s) => s.ms)), 1),
        fieldEdit: edits,
        fieldEditMedian: round(median(edits.map((s) => s.ms)), 1),
        fieldEditSettle: settle,
        fieldEditSplit,
      },
    }
  } finally {
    await browser.close()
    if (server.pid) {
      try {
        process.kill(-server.pid)
      } catch {
        server.kill()
      }
    }
    rmSync(dist, { recursive: true, force: true })
  }
}
