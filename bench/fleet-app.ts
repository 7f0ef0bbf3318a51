/**
 * The fleet bench's app half (bench/fleet.ts): the built app in Chromium, N files run through the
 * fleet view, picked as a folder (the directory picker, or the folder input it falls back to) or
 * dropped on the page; wall time, pool size, long tasks.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { chromium, type Browser, type Page } from '@playwright/test'
import { findChromium } from '../scripts/chromium-path.mjs'
import { FLEET_TID } from '../src/ui/features/fleet/fleetIds.ts'
import { ARGS, MONITOR } from './browser.ts'
import { TRACE_CATEGORIES, tracedTaskLine, tracedTasks } from './fleet-trace.ts'
import { longTaskLines, type CpuProfile, type LongTask } from './long-task-profile.ts'

const ROOT = resolve(import.meta.dirname, '..')

/**
 * How the app's run was started. `pick`: "Add a folder…" through `showDirectoryPicker` (stubbed
 * with an OPFS folder, see `stubDirectoryPicker`); `input`: the `<input webkitdirectory>` fallback;
 * `drop`: the folder dropped on the page.
 */
export type AppRoute = 'pick' | 'input' | 'drop'

export const APP_ROUTES: readonly AppRoute[] = ['pick', 'input', 'drop']

export type AppRun =
  | {
      readonly kind: 'measured'
      readonly ms: number
      readonly rows: number
      readonly poolSize: number
      readonly longestTaskMs: number
      readonly longTasks: number
      readonly longestFrameGapMs: number
    }
  | { readonly kind: 'skipped'; readonly reason: string }

async function freePort(): Promise<number> {
  const out = spawnSync(process.execPath, [join(ROOT, 'scripts/free-port.mjs')], {
    encoding: 'utf8',
  })
  return Number(out.stdout.trim())
}

async function waitForServer(url: string): Promise<void> {
  for (let i = 0; i < 150; i++) {
    try {
      if ((await fetch(url)).ok) return
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200))
  }
  throw new Error(`preview server did not start at ${url}`)
}

export async function benchBrowserFleet(
  folder: string,
  files: number,
  profile = false,
): Promise<Record<AppRoute, AppRun>> {
  const skip = (reason: string): Record<AppRoute, AppRun> => ({
    pick: { kind: 'skipped', reason },
    input: { kind: 'skipped', reason },
    drop: { kind: 'skipped', reason },
  })
  const browserPath = findChromium()?.path
  if (!browserPath) return skip('no Chromium found (see scripts/chromium-path.mjs)')
  const dist = mkdtempSync(join(tmpdir(), 'compaction-lab-fleet-dist-'))
  const build = spawnSync(
    'npx',
    // FLEET_BENCH_MINIFY=false: readable function names in --profile's per-task lines.
    [
      'vite',
      'build',
      '--outDir',
      dist,
      '--emptyOutDir',
      '--logLevel',
      'error',
      ...(process.env.FLEET_BENCH_MINIFY === 'false' ? ['--minify', 'false'] : []),
    ],
    {
      cwd: ROOT,
      stdio: 'inherit',
    },
  )
  if (build.status !== 0) return skip('vite build failed')
  const port = await freePort()
  const server: ChildProcess = spawn(
    'npx',
    ['vite', 'preview', '--port', String(port), '--strictPort', '--outDir', dist],
    {
      cwd: ROOT,
      stdio: 'ignore',
      detached: true,
    },
  )
  const browser = await chromium.launch({
    executablePath: browserPath,
    headless: true,
    args: ARGS,
  })
  try {
    await waitForServer(`http://localhost:${port}/`)
    const runs: Record<AppRoute, AppRun> = skip('not run')
    // FLEET_BENCH_ROUTES=drop (or pick, input; comma-separated): those routes only, for a quicker
    // look while profiling.
    const only = process.env.FLEET_BENCH_ROUTES?.split(',')
    for (const route of APP_ROUTES) {
      if (only && !only.includes(route)) continue
      console.log(`  app, ${ROUTE_NAMES[route]}:`)
      runs[route] = await appRun(browser, port, folder, files, route, profile)
    }
    return runs
  } finally {
    await browser.close()
    if (server.pid) process.kill(-server.pid)
  }
}

/** How RESULTS.md names each route. */
export const ROUTE_NAMES: Record<AppRoute, string> = {
  pick: 'folder picked (showDirectoryPicker, stubbed with an OPFS folder)',
  input: 'folder picked, input fallback (webkitdirectory)',
  drop: 'folder dropped',
}

/**
 * Playwright cannot answer the browser's native directory picker, so for the `pick` route (and
 * only in this bench and the e2e spec) `window.showDirectoryPicker` is replaced by a function
 * returning a folder of the page's origin-private file system (OPFS) — a real
 * `FileSystemDirectoryHandle`, walked by the app exactly as a picked one — into which the page
 * first writes the N files. The files come from the bench's folder through a routed URL (bytes,
 * not strings through CDP). All of it happens before the timed and long-task window opens.
 */
async function stubDirectoryPicker(page: Page, folder: string): Promise<void> {
  const names = readdirSync(folder).sort()
  const base = folder.split('/').pop() as string
  await page.route('**/__fleet-bench/**', (route) => {
    const name = decodeURIComponent(new URL(route.request().url()).pathname.split('/').pop() ?? '')
    return route.fulfill({ status: 200, body: readFileSync(join(folder, name)) })
  })
  // A string, like the bench's other page scripts: this file compiles without the DOM's types.
  await page.evaluate(`(async (base, names) => {
    const root = await navigator.storage.getDirectory()
    await root.removeEntry(base, { recursive: true }).catch(() => undefined)
    const dir = await root.getDirectoryHandle(base, { create: true })
    for (const name of names) {
      const bytes = await (await fetch('/__fleet-bench/' + encodeURIComponent(name))).arrayBuffer()
      const writable = await (await dir.getFileHandle(name, { create: true })).createWritable()
      await writable.write(bytes)
      await writable.close()
    }
    window.showDirectoryPicker = () => Promise.resolve(dir)
  })(${JSON.stringify(base)}, ${JSON.stringify(names)})`)
  await page.unroute('**/__fleet-bench/**')
}

/**
 * One run in a fresh page. `pick`: "Add a folder…" with `showDirectoryPicker` stubbed by an OPFS
 * folder (the app reads its entries a batch at a time). `input`: the folder input (Chromium turns
 * the folder into one FileList in one native task before any page code runs). `drop`: a real native drop of the folder through
 * CDP (`Input.dispatchDragEvent` with its path, as Playwright's own drag and drop does), which the
 * page walks with `webkitGetAsEntry`, a batch of entries and one file per task. The long-task
 * window runs from the start to 1.5 s after the last row (the charts are drawn after the run).
 */
async function appRun(
  browser: Browser,
  port: number,
  folder: string,
  files: number,
  route: AppRoute,
  profile: boolean,
): Promise<AppRun> {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } })
  try {
    await page.addInitScript(MONITOR)
    await page.goto(`http://localhost:${port}/`)
    await page.getByTestId(FLEET_TID.openFleet).click()
    if (route === 'pick') await stubDirectoryPicker(page, folder)
    // Let the start-up (sample load and run) settle so its tasks are not counted.
    await page.waitForTimeout(3000)
    // --profile: a CPU profile over the run, cut at each long task (printed, not recorded).
    const cdp = profile ? await page.context().newCDPSession(page) : null
    if (cdp) {
      await cdp.send('Profiler.enable')
      await cdp.send('Profiler.setSamplingInterval', { interval: 500 })
      await cdp.send('Profiler.start')
    }
    // FLEET_BENCH_TRACE=1: a Chromium trace over the run, every main-thread task of 20 ms or more
    // printed with its wall and CPU time (see fleet-trace.ts; printed, not recorded).
    const trace = process.env.FLEET_BENCH_TRACE === '1'
    if (trace) await browser.startTracing(page, { categories: TRACE_CATEGORIES })
    const t0 = await page.evaluate<number>(
      "performance.mark('fleet-bench-start'), performance.now()",
    )
    if (route === 'pick') await page.getByTestId(FLEET_TID.folderButton).click()
    else if (route === 'input') await page.getByTestId(FLEET_TID.folderInput).setInputFiles(folder)
    else {
      const input = cdp ?? (await page.context().newCDPSession(page))
      const data = { items: [], files: [folder], dragOperationsMask: 1 }
      for (const type of ['dragEnter', 'dragOver', 'drop'] as const)
        await input.send('Input.dispatchDragEvent', { type, x: 720, y: 450, data })
    }
    const t1 = await page.evaluate<number>(`new Promise((resolve, reject) => {
      const started = performance.now()
      const tick = () => {
        const p = document.querySelector('[data-testid="${FLEET_TID.progress}"]')
        if (p && p.getAttribute('data-running') === 'false' && p.getAttribute('data-total') === '${files}') resolve((performance.mark('fleet-bench-end'), performance.now()))
        else if (performance.now() - started > 1800000) reject(new Error('timeout'))
        else setTimeout(tick, 50)
      }
      tick()
    })`)
    let cpuProfile: CpuProfile | null = null
    await page.waitForTimeout(1500) // the charts follow the run's end, one per task
    const traced = trace ? (await browser.stopTracing()).toString('utf8') : null
    if (cdp) {
      const { profile: cpu } = await cdp.send('Profiler.stop')
      const tasks = await page.evaluate<LongTask[]>(
        `window.__bench.tasks.filter((t) => t.start + t.duration >= ${t0})`,
      )
      if (!traced)
        for (const line of longTaskLines(cpu as CpuProfile, tasks, t0)) console.log(`    ${line}`)
      // FLEET_BENCH_PROFILE_DIR: keep the whole profile (read with scratch/prof.mjs).
      const keep = process.env.FLEET_BENCH_PROFILE_DIR
      if (keep) writeFileSync(join(keep, `fleet-${route}.cpuprofile`), JSON.stringify(cpu))
      cpuProfile = cpu as CpuProfile
    }
    if (traced) {
      const keep = process.env.FLEET_BENCH_PROFILE_DIR
      if (keep) writeFileSync(join(keep, `fleet-${route}.trace.json`), traced)
      const tasks = tracedTasks(
        JSON.parse(traced),
        'fleet-bench-start',
        'fleet-bench-end',
        20,
        cpuProfile,
      )
      console.log(
        `    run ended at ${Math.round(t1 - t0)} ms; tasks of 20 ms or more (wall or CPU):`,
      )
      for (const t of tasks) console.log(`    ${tracedTaskLine(t)}`)
    }
    const stats = await page.evaluate<{
      longestTaskMs: number
      longTasks: number
      longestFrameGapMs: number
      done: number
      poolText: string
    }>(`(() => {
      const a = ${t0}, b = ${t1 + 1500}, bench = window.__bench
      const tasks = bench.tasks.filter((t) => t.start + t.duration >= a && t.start <= b)
      const gaps = bench.gaps.filter((g) => g.at >= a && g.at - g.gap <= b)
      const p = document.querySelector('[data-testid="${FLEET_TID.progress}"]')
      return {
        longestTaskMs: Math.round(tasks.reduce((m, t) => Math.max(m, t.duration), 0)),
        longTasks: tasks.length,
        longestFrameGapMs: Math.round(gaps.reduce((m, g) => Math.max(m, g.gap), 0)),
        done: Number(p?.getAttribute('data-done') ?? 0),
        poolText: String(navigator.hardwareConcurrency),
      }
    })()`)
    return {
      kind: 'measured',
      ms: Math.round(t1 - t0),
      rows: stats.done,
      poolSize: Math.max(1, Number(stats.poolText) - 1),
      longestTaskMs: stats.longestTaskMs,
      longTasks: stats.longTasks,
      longestFrameGapMs: stats.longestFrameGapMs,
    }
  } finally {
    await page.close()
  }
}
