/**
 * Fleet evaluation speed (issue 16). `node bin/run-ts.mjs bench/fleet.ts [--quick] [--count N]
 * [--cli-only | --app-only] [--profile]` alone (writes bench/fleet-results[.cli|.app].json), or as part of
 * `npm run bench`.
 *
 * (1) `compaction-lab evaluate` over N generated transcripts (mixed formats, 20–2,000 messages)
 *     with --jobs 1 and --jobs 2, each a fresh process (worker start-up included); the two
 *     reports must be identical. Load averages are recorded: on a shared machine the speed-up
 *     says as much about the neighbours as about the pool.
 * (2) The app in Chromium: the same N files picked as a folder in the fleet view → all rows done;
 *     wall time, the pool size, and the longest main-thread task (Long Tasks API, > 50 ms only)
 *     and frame gap.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { chromium } from '@playwright/test'
import { findChromium } from '../scripts/chromium-path.mjs'
import { generateFleet } from '../scripts/sample/fleet-fixtures.ts'
import type { FleetTimings } from '../src/cli/fleet-timings.ts'
import { FLEET_TID } from '../src/ui/features/fleet/fleetIds.ts'
import { longTaskLines, type CpuProfile, type LongTask } from './long-task-profile.ts'

const ROOT = resolve(import.meta.dirname, '..')

export interface CliRun {
  readonly jobs: number
  readonly ms: number
  readonly loadBefore: number
  readonly loadAfter: number
  /** Where the time went (evaluate's own split: CPU per thread, serial parts); null if skipped. */
  readonly timings: FleetTimings | null
}

export interface FleetBench {
  readonly files: number
  readonly bytes: number
  readonly messages: { readonly min: number; readonly max: number; readonly total: number }
  readonly cpus: number
  readonly cli: readonly CliRun[]
  readonly speedUp: number
  readonly reportsIdentical: boolean
  readonly conversations: number
  readonly browser:
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
}

function writeFixtures(count: number): { dir: string; bytes: number; messages: number[] } {
  const dir = mkdtempSync(join(tmpdir(), 'compaction-lab-fleet-'))
  const folder = join(dir, 'fleet')
  mkdirSync(folder)
  let bytes = 0
  const messages: number[] = []
  for (const f of generateFleet(count, 16)) {
    writeFileSync(join(folder, f.name), f.text)
    bytes += Buffer.byteLength(f.text)
    messages.push(f.messages)
  }
  return { dir, bytes, messages }
}

function evaluate(folder: string, jobs: number, out: string): CliRun {
  const loadBefore = loadavg()[0] ?? 0
  const timingsPath = `${out}.timings.json`
  const t0 = performance.now()
  const run = spawnSync(
    process.execPath,
    [
      join(ROOT, 'bin/compaction-lab.mjs'),
      'evaluate',
      folder,
      '--preset',
      'recommended',
      '--jobs',
      String(jobs),
      '--out',
      out,
    ],
    {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      env: { ...process.env, COMPACTION_LAB_TIMINGS: timingsPath },
    },
  )
  const ms = performance.now() - t0
  if (run.status !== 0)
    throw new Error(`evaluate --jobs ${jobs} exited ${run.status}: ${run.stderr.slice(-2000)}`)
  return {
    jobs,
    ms: Math.round(ms),
    loadBefore: round2(loadBefore),
    loadAfter: round2(loadavg()[0] ?? 0),
    timings: JSON.parse(readFileSync(timingsPath, 'utf8')) as FleetTimings,
  }
}

const sec = (ms: number | null | undefined) => (ms == null ? '?' : (ms / 1000).toFixed(1))

/**
 * The CPU split of one run: what the speed-up can reach whatever the neighbours do. `work` is the
 * CPU of the threads that evaluate files; `other` is the rest of the process (V8's JIT and GC
 * helper threads, the tsx loader), which on idle cores runs beside the work for free with --jobs 1
 * but competes with the second worker with --jobs 2.
 */
function cpuSplit(run: CliRun): string {
  const t = run.timings
  if (!t) return 'no timings'
  const workers = t.pool.workers
  const work =
    workers.length === 0
      ? (t.pool.mainCpuMs ?? 0)
      : workers.reduce((sum, w) => sum + (w.cpuMs ?? 0), 0)
  const parts =
    workers.length === 0
      ? `main thread ${sec(t.pool.mainCpuMs)} s`
      : `workers ${workers.map((w) => sec(w.cpuMs)).join(' + ')} s (start-up ${workers.map((w) => sec(w.startupCpuMs)).join(' + ')} s, waiting for a CPU ${workers.map((w) => sec(w.waitMs)).join(' + ')} s; ${workers.map((w) => w.files).join(' + ')} files), main thread ${sec(t.pool.mainCpuMs)} s (${t.pool.mainFiles ?? '?'} files)`
  return `${parts}; rest of the process (JIT and GC helper threads, start-up) ${sec(t.processCpuMs - work - (workers.length ? (t.pool.mainCpuMs ?? 0) : 0))} s; process ${sec(t.processCpuMs)} s; serial: ${sec(t.beforeMs)} s before the pool, ${sec(t.afterMs)} s after`
}

const round2 = (x: number) => Math.round(x * 100) / 100

const MONITOR = `(() => {
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

async function benchBrowserFleet(
  folder: string,
  files: number,
  profile = false,
): Promise<FleetBench['browser']> {
  const browserPath = findChromium()?.path
  if (!browserPath)
    return { kind: 'skipped', reason: 'no Chromium found (see scripts/chromium-path.mjs)' }
  const dist = mkdtempSync(join(tmpdir(), 'compaction-lab-fleet-dist-'))
  const build = spawnSync(
    'npx',
    ['vite', 'build', '--outDir', dist, '--emptyOutDir', '--logLevel', 'error'],
    {
      cwd: ROOT,
      stdio: 'inherit',
    },
  )
  if (build.status !== 0) return { kind: 'skipped', reason: 'vite build failed' }
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
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  })
  try {
    await waitForServer(`http://localhost:${port}/`)
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } })
    await page.addInitScript(MONITOR)
    await page.goto(`http://localhost:${port}/`)
    await page.getByTestId(FLEET_TID.openFleet).click()
    // Let the start-up (sample load and run) settle so its tasks are not counted.
    await page.waitForTimeout(3000)
    // --profile: a CPU profile over the run, cut at each long task (printed, not recorded).
    const cdp = profile ? await page.context().newCDPSession(page) : null
    if (cdp) {
      await cdp.send('Profiler.enable')
      await cdp.send('Profiler.setSamplingInterval', { interval: 500 })
      await cdp.send('Profiler.start')
    }
    const t0 = await page.evaluate<number>('performance.now()')
    await page.getByTestId(FLEET_TID.folderInput).setInputFiles(folder)
    const t1 = await page.evaluate<number>(`new Promise((resolve, reject) => {
      const started = performance.now()
      const tick = () => {
        const p = document.querySelector('[data-testid="${FLEET_TID.progress}"]')
        if (p && p.getAttribute('data-running') === 'false' && p.getAttribute('data-total') === '${files}') resolve(performance.now())
        else if (performance.now() - started > 1800000) reject(new Error('timeout'))
        else setTimeout(tick, 50)
      }
      tick()
    })`)
    if (cdp) {
      await page.waitForTimeout(1000) // the charts follow the run's end, one per task
      const { profile: cpu } = await cdp.send('Profiler.stop')
      const tasks = await page.evaluate<LongTask[]>(
        `window.__bench.tasks.filter((t) => t.start + t.duration >= ${t0})`,
      )
      for (const line of longTaskLines(cpu as CpuProfile, tasks, t0)) console.log(`    ${line}`)
    }
    const stats = await page.evaluate<{
      longestTaskMs: number
      longTasks: number
      longestFrameGapMs: number
      done: number
      poolText: string
    }>(`(() => {
      const a = ${t0}, b = ${t1}, bench = window.__bench
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
    await browser.close()
    if (server.pid) process.kill(-server.pid)
  }
}

export async function benchFleet(
  quick: boolean,
  count = quick ? 40 : 200,
  parts: { cli: boolean; app: boolean; profile?: boolean } = { cli: true, app: true },
): Promise<FleetBench> {
  const { dir, bytes, messages } = writeFixtures(count)
  const folder = join(dir, 'fleet')
  console.log(`  ${count} generated transcripts, ${(bytes / 1e6).toFixed(1)} MB`)
  const skipped: CliRun = { jobs: 0, ms: 0, loadBefore: 0, loadAfter: 0, timings: null }
  const one = parts.cli ? evaluate(folder, 1, join(dir, 'jobs1.json')) : skipped
  console.log(`  evaluate --jobs 1: ${one.ms} ms (load ${one.loadBefore} → ${one.loadAfter})`)
  console.log(`    CPU: ${cpuSplit(one)}`)
  const two = parts.cli ? evaluate(folder, 2, join(dir, 'jobs2.json')) : skipped
  console.log(`  evaluate --jobs 2: ${two.ms} ms (load ${two.loadBefore} → ${two.loadAfter})`)
  console.log(`    CPU: ${cpuSplit(two)}`)
  const r1 = parts.cli ? readFileSync(join(dir, 'jobs1.json'), 'utf8') : '{"rows":[]}'
  const r2 = parts.cli ? readFileSync(join(dir, 'jobs2.json'), 'utf8') : r1
  const report = JSON.parse(r1) as { rows: unknown[] }
  const browser: FleetBench['browser'] = parts.app
    ? await benchBrowserFleet(folder, count, parts.profile)
    : { kind: 'skipped', reason: '--cli-only' }
  if (browser.kind === 'measured')
    console.log(
      `  app: ${browser.rows}/${count} files done in ${browser.ms} ms with ${browser.poolSize} worker(s); longest main-thread task ${browser.longestTaskMs} ms (${browser.longTasks} over 50 ms), longest frame gap ${browser.longestFrameGapMs} ms`,
    )
  else console.log(`  app: skipped (${browser.reason})`)
  return {
    files: count,
    bytes,
    messages: {
      min: messages.reduce((m, x) => Math.min(m, x), Infinity),
      max: messages.reduce((m, x) => Math.max(m, x), 0),
      total: messages.reduce((s, x) => s + x, 0),
    },
    cpus: cpus().length,
    cli: [one, two],
    speedUp: two.ms > 0 ? round2(one.ms / two.ms) : 0,
    reportsIdentical: r1 === r2,
    conversations: report.rows.length,
    browser,
  }
}

/** RESULTS.md lines for the fleet bench. */
export function renderFleet(f: FleetBench): string {
  const [one, two] = f.cli
  const lines = [
    '',
    '## Fleet evaluation (issue 16)',
    '',
    `${f.files} generated transcripts (Claude Code and OpenAI Chat, ${f.messages.total.toLocaleString('en-US')} messages, up to ${f.messages.max} each; ${(f.bytes / 1e6).toFixed(1)} MB), preset \`recommended\`, ${f.cpus} CPUs shared with other work (1-minute load average shown).`,
    '',
    '| run | wall time | load before → after |',
    '| --- | ---: | --- |',
    `| \`evaluate --jobs 1\` | ${one?.ms} ms | ${one?.loadBefore} → ${one?.loadAfter} |`,
    `| \`evaluate --jobs 2\` | ${two?.ms} ms | ${two?.loadBefore} → ${two?.loadAfter} |`,
    '',
    `Speed-up ${f.speedUp}× (target ≥ 1.7× on 2 idle cores); reports identical: ${f.reportsIdentical ? 'yes' : 'NO'}; ${f.conversations} rows.`,
    '',
    ...(one ? [`CPU, \`--jobs 1\`: ${cpuSplit(one)}.`] : []),
    ...(two ? [`CPU, \`--jobs 2\`: ${cpuSplit(two)}.`] : []),
  ]
  if (f.browser.kind === 'measured')
    lines.push(
      '',
      `The app (Chromium, the folder picked in the fleet view): ${f.browser.rows}/${f.files} files done in ${f.browser.ms} ms with a pool of ${f.browser.poolSize} worker(s) (hardwareConcurrency − 1); longest main-thread task ${f.browser.longestTaskMs} ms (${f.browser.longTasks} tasks over 50 ms), longest frame gap ${f.browser.longestFrameGapMs} ms.`,
    )
  else lines.push('', `The app: skipped (${f.browser.reason}).`)
  return lines.join('\n') + '\n'
}

const entry = process.argv[1]
if (entry && import.meta.url.endsWith(entry.replaceAll('\\', '/'))) {
  const quick = process.argv.includes('--quick')
  const i = process.argv.indexOf('--count')
  const count = i >= 0 ? Number(process.argv[i + 1]) : undefined
  console.log(
    `fleet bench${quick ? ' (quick)' : ''} — node ${process.version}, ${cpus().length} cpus`,
  )
  // The header's --cli-only / --app-only: run one half alone (the other is reported as skipped).
  const parts = {
    cli: !process.argv.includes('--app-only'),
    app: !process.argv.includes('--cli-only'),
    profile: process.argv.includes('--profile'),
  }
  const result = await benchFleet(quick, count, parts)
  writeFileSync(
    join(
      import.meta.dirname,
      `fleet-results${parts.cli && parts.app ? '' : parts.cli ? '.cli' : '.app'}.json`,
    ),
    JSON.stringify({ date: new Date().toISOString(), ...result }, null, 2) + '\n',
  )
  console.log(renderFleet(result))
}
