import { writeFile } from 'node:fs/promises'
import type { PoolStats } from './fleet-pool.ts'

/**
 * Where `evaluate`'s time went, for `--jobs` tuning and the fleet bench: wall time before the
 * pool (process start, module load, listing), in it and after it (report, writing), and the CPU
 * of this thread, of each worker and of the whole process (GC helper threads included). On a
 * shared machine wall time says as much about the neighbours as about the pool; the split says
 * what the parallel part could reach (Amdahl).
 */
export interface FleetTimings {
  /** Wall ms from process start to the pool starting. */
  readonly beforeMs: number
  readonly pool: PoolStats
  /** Wall ms from the last file to the outputs written. */
  readonly afterMs: number
  /** CPU ms of the whole process (every thread) since it started. */
  readonly processCpuMs: number
}

const s = (ms: number | null) => (ms === null ? '?' : (ms / 1000).toFixed(1))

/** One stderr line; `--jobs 1` has no workers to list. */
export function timingsLine(t: FleetTimings): string {
  const w = t.pool.workers
  const workers =
    w.length === 0
      ? ''
      : `, ${w.length} workers ${w.map((x) => s(x.cpuMs)).join(' + ')} s ` +
        `(start-up ${w.map((x) => s(x.startupCpuMs)).join(' + ')} s; ` +
        `not working ${w.map((x) => s(t.pool.wallMs - x.busyMs)).join(' + ')} s of ${s(t.pool.wallMs)} s; ` +
        `${w.map((x) => x.files).join(' + ')} files)`
  return (
    `time: ${s(t.beforeMs)} s before the pool, ${s(t.pool.wallMs)} s in it, ${s(t.afterMs)} s after; ` +
    `CPU: this thread ${s(t.pool.mainCpuMs)} s in the pool (${t.pool.mainFiles} files)${workers}, whole process ${s(t.processCpuMs)} s\n`
  )
}

/** `COMPACTION_LAB_TIMINGS=FILE` asks for the figures as JSON (the fleet bench reads them). */
export async function writeTimings(t: FleetTimings): Promise<void> {
  const path = process.env.COMPACTION_LAB_TIMINGS
  if (path) await writeFile(path, JSON.stringify(t, null, 2) + '\n')
}
