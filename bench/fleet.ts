/**
 * Fleet evaluation speed (issue 16). `node bin/run-ts.mjs bench/fleet.ts [--quick] [--count N]
 * [--cli-only | --app-only] [--profile]` alone (writes bench/fleet-results[.cli|.app].json), or as part of
 * `npm run bench`.
 *
 * (1) `compaction-lab evaluate` over N generated transcripts (mixed formats, 20–2,000 messages)
 *     with --jobs 1 and --jobs 2, each a fresh process (worker start-up included); the two
 *     reports must be identical. Load averages are recorded: on a shared machine the speed-up
 *     says as much about the neighbours as about the pool.
 * (2) The app in Chromium: the same N files as a folder in the fleet view — picked through
 *     `showDirectoryPicker` (stubbed with an OPFS folder: Playwright cannot answer the native
 *     picker), picked through the `webkitdirectory` input it falls back to, and dropped → all rows
 *     done; wall time, the pool size, and the longest main-thread task (Long Tasks API, > 50 ms
 *     only) and frame gap.
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { generateFleet } from '../scripts/sample/fleet-fixtures.ts'
import type { FleetTimings } from '../src/cli/fleet-timings.ts'
import {
  APP_ROUTES,
  benchBrowserFleet,
  ROUTE_NAMES,
  type AppRoute,
  type AppRun,
} from './fleet-app.ts'

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
  /**
   * The folder picked through "Add a folder…" with `showDirectoryPicker` (stubbed with an OPFS
   * folder the page wrote before the timed window; read a batch of entries at a time).
   */
  readonly browser: AppRun
  /** The folder picked through the `webkitdirectory` input fallback (Chromium builds one FileList). */
  readonly input: AppRun
  /** The same folder dropped on the page (walked with `webkitGetAsEntry`, read in batches). */
  readonly drop: AppRun
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
  const app: Record<AppRoute, AppRun> = parts.app
    ? await benchBrowserFleet(folder, count, parts.profile)
    : {
        pick: { kind: 'skipped', reason: '--cli-only' },
        input: { kind: 'skipped', reason: '--cli-only' },
        drop: { kind: 'skipped', reason: '--cli-only' },
      }
  for (const route of APP_ROUTES) console.log(`  app, ${appLine(route, app[route], count)}`)
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
    browser: app.pick,
    input: app.input,
    drop: app.drop,
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
  lines.push('', `The app (Chromium), ${appLine('pick', f.browser, f.files)}.`)
  lines.push(
    '',
    "Playwright cannot answer the native directory picker: for that row the bench (only) replaces `window.showDirectoryPicker` with a folder of the page's origin-private file system (OPFS), into which the page writes the files first, outside the timed and long-task window; the app walks that real directory handle as it would a picked one.",
  )
  lines.push('', `The app (Chromium), ${appLine('input', f.input, f.files)}.`)
  lines.push('', `The app (Chromium), ${appLine('drop', f.drop, f.files)}.`)
  return lines.join('\n') + '\n'
}

function appLine(route: AppRoute, run: AppRun, files: number): string {
  const how = ROUTE_NAMES[route]
  if (run.kind === 'skipped') return `${how}: skipped (${run.reason})`
  return `${how}: ${run.rows}/${files} files done in ${run.ms} ms with a pool of ${run.poolSize} worker(s) (hardwareConcurrency − 1); longest main-thread task ${run.longestTaskMs} ms (${run.longTasks} tasks over 50 ms, until 1.5 s after the last row), longest frame gap ${run.longestFrameGapMs} ms`
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
