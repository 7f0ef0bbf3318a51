/**
 * Where one `evaluate` run's CPU goes, by thread (bench/FLEET.md, D7's pass): the evaluating
 * thread(s) against V8's helper threads (TurboFan compiles, GC), read from
 * `/proc/PID/task/TID/schedstat` every 100 ms (Linux only; the last reading before each thread
 * ends). `node bin/run-ts.mjs bench/fleet-threads.ts FOLDER JOBS [node flags…]`, e.g. with
 * `--single-threaded` to see the same run with V8's helper threads switched off.
 */
import { spawn } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { FleetTimings } from '../src/cli/fleet-timings.ts'

const ROOT = resolve(import.meta.dirname, '..')
const [folder, jobs = '1', ...flags] = process.argv.slice(2)
if (!folder) throw new Error('usage: bench/fleet-threads.ts FOLDER JOBS [node flags…]')
const timingsPath = `/tmp/fleet-threads-${process.pid}.json`
const t0 = performance.now()
const child = spawn(
  process.execPath,
  [
    ...flags,
    join(ROOT, 'bin/compaction-lab.mjs'),
    'evaluate',
    folder,
    '--preset',
    'recommended',
    '--jobs',
    jobs,
    '--out',
    `/tmp/fleet-threads-${process.pid}.out.json`,
  ],
  {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, COMPACTION_LAB_TIMINGS: timingsPath },
  },
)
/** CPU ms per thread id, the latest reading. */
const cpu = new Map<string, number>()
const sample = () => {
  const task = `/proc/${child.pid}/task`
  try {
    for (const tid of readdirSync(task)) {
      try {
        const run = Number(readFileSync(`${task}/${tid}/schedstat`, 'utf8').split(' ')[0])
        cpu.set(tid, run / 1e6)
      } catch {
        // the thread ended between the listing and the read
      }
    }
  } catch {
    // the process ended
  }
}
const timer = setInterval(sample, 100)
child.on('exit', (code) => {
  clearInterval(timer)
  if (code !== 0) throw new Error(`evaluate exited ${code}`)
  const t = JSON.parse(readFileSync(timingsPath, 'utf8')) as FleetTimings
  const s = (ms: number) => (ms / 1000).toFixed(1)
  const main = cpu.get(String(child.pid)) ?? 0
  const workers = t.pool.workers.reduce((sum, w) => sum + (w.cpuMs ?? 0), 0)
  const all = [...cpu.values()].reduce((a, b) => a + b, 0)
  console.log(
    `--jobs ${jobs} ${flags.join(' ')}: wall ${s(performance.now() - t0)} s; main thread ${s(main)} s ` +
      `(${s(t.pool.mainCpuMs ?? 0)} s in the pool, ${s(t.beforeMs)} s wall before it), workers ${t.pool.workers.map((w) => s(w.cpuMs ?? 0)).join(' + ') || '–'} s, ` +
      `other threads (V8 helpers, libuv) ${s(all - main - workers)} s; process ${s(t.processCpuMs)} s`,
  )
})
