import { readFileSync } from 'node:fs'

/** The calling thread's own times, so a pool's split (workers vs main thread) can be measured. */
export interface ThreadTimes {
  /** Time this thread ran on a CPU. */
  readonly cpuMs: number
  /** Time it was ready to run but waited for a CPU (other threads, other processes); null if unknown. */
  readonly waitMs: number | null
}

/**
 * This thread's CPU time from Linux's `/proc/thread-self` (null elsewhere). `process.cpuUsage()`
 * sums every thread of the process (workers, GC helpers), and Node 20 has no per-thread call, so
 * a worker's own figure has to come from here. The read is synchronous on purpose: `thread-self`
 * names the thread doing the read, and async reads run on libuv's pool.
 */
export function threadTimes(): ThreadTimes | null {
  try {
    // schedstat: "ns on CPU, ns waiting on a run queue, timeslices" — exact, when the kernel keeps it.
    const [run, wait] = readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ').map(Number)
    if (run !== undefined && wait !== undefined && run > 0)
      return { cpuMs: run / 1e6, waitMs: wait / 1e6 }
  } catch {
    // not Linux, or no schedstat: try stat below
  }
  try {
    // stat: utime and stime (fields 14, 15) in USER_HZ ticks, which the /proc ABI fixes at 100/s.
    const stat = readFileSync('/proc/thread-self/stat', 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    const ticks = Number(fields[11]) + Number(fields[12])
    return Number.isFinite(ticks) ? { cpuMs: ticks * 10, waitMs: null } : null
  } catch {
    return null
  }
}
