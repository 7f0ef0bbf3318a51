/**
 * The fleet bench's `FLEET_BENCH_TRACE=1` (bench/fleet-app.ts): a Chromium trace of the run, read
 * for every main-thread task, not only the ones over 50 ms the Long Tasks API reports. A trace
 * event carries its wall duration (`dur`) and the thread's CPU time in it (`tdur`): on a shared
 * machine a 70 ms task can be 20 ms of work and 50 ms descheduled, and only `tdur` tells them apart.
 * Printed, not recorded.
 */

/** The part of a trace event read here (Chrome's JSON trace format; times in microseconds). */
interface TraceEvent {
  readonly name: string
  readonly cat: string
  readonly ph: string
  readonly pid: number
  readonly tid: number
  readonly ts: number
  readonly dur?: number
  readonly tdur?: number
  readonly args?: { readonly name?: string; readonly data?: { readonly functionName?: string } }
}

/** The categories to record: the task boundaries, what ran in them, and `performance.mark`s. */
export const TRACE_CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'blink.user_timing',
  'v8.execute',
]

/** A CPU profile's samples (CDP `Profiler.Profile`, the same clock as the trace). */
export interface SampledProfile {
  readonly nodes: readonly {
    readonly id: number
    readonly callFrame: { readonly functionName: string; readonly lineNumber: number }
    readonly children?: readonly number[]
  }[]
  readonly startTime: number
  readonly samples: readonly number[]
  readonly timeDeltas: readonly number[]
}

/**
 * What the samples in [from, to] (µs) ran: the heaviest functions by self time, and by inclusive
 * time those whose name starts with a capital (React components), which say whose render it was.
 */
function sampled(profile: SampledProfile, from: number, to: number): string {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]))
  const parent = new Map<number, number>()
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
  const self = new Map<string, number>()
  const components = new Map<string, number>()
  let t = profile.startTime
  profile.samples.forEach((id, k) => {
    t += profile.timeDeltas[k] ?? 0
    if (t < from || t > to) return
    const us = profile.timeDeltas[k + 1] ?? 0
    const leaf = byId.get(id)
    if (!leaf || leaf.callFrame.functionName === '(idle)') return
    const name = (n: typeof leaf) =>
      `${n.callFrame.functionName || '(anon)'}:${n.callFrame.lineNumber + 1}`
    self.set(name(leaf), (self.get(name(leaf)) ?? 0) + us)
    const seen = new Set<string>()
    for (let c: number | undefined = id; c !== undefined; c = parent.get(c)) {
      const node = byId.get(c)
      if (!node || !/^[A-Z][a-z]/.test(node.callFrame.functionName)) continue
      const key = node.callFrame.functionName
      if (seen.has(key)) continue
      seen.add(key)
      components.set(key, (components.get(key) ?? 0) + us)
    }
  })
  const fmt = (m: Map<string, number>) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 6)
      .filter(([, us]) => us >= 1000)
      .map(([k, us]) => `${k} ${Math.round(us / 1000)}`)
      .join(', ')
  return `\n        self: ${fmt(self)}\n        components: ${fmt(components)}`
}

export interface TracedTask {
  /** ms after the mark `start` (the click or drop). */
  readonly at: number
  /** ms after the mark `end` (the last row done), negative before it. */
  readonly afterEnd: number
  readonly wallMs: number
  /** The main thread's CPU time in the task (ms): its work, descheduled time excluded. */
  readonly cpuMs: number
  /** The longest direct parts of the task (timer, event, layout, paint…), by wall ms. */
  readonly parts: string
}

/**
 * The renderer main thread's tasks between the page's `performance.mark(startMark)` and 1.5 s
 * after `performance.mark(endMark)`, with wall or CPU time of at least `minMs`.
 */
export function tracedTasks(
  trace: { readonly traceEvents: readonly TraceEvent[] },
  startMark: string,
  endMark: string,
  minMs = 20,
  profile: SampledProfile | null = null,
): TracedTask[] {
  const events = trace.traceEvents
  const start = events.find((e) => e.name === startMark && e.cat.includes('blink.user_timing'))
  const end = events.find((e) => e.name === endMark && e.cat.includes('blink.user_timing'))
  if (!start || !end) return []
  // The page's main thread: where its marks were made.
  const { pid, tid } = start
  const onMain = events.filter((e) => e.pid === pid && e.tid === tid && e.ph === 'X')
  const tasks = onMain
    .filter((e) => e.name === 'RunTask' && e.ts >= start.ts && e.ts <= end.ts + 1_500_000)
    .sort((a, b) => a.ts - b.ts)
  const out: TracedTask[] = []
  for (const task of tasks) {
    const wallMs = (task.dur ?? 0) / 1000
    const cpuMs = (task.tdur ?? 0) / 1000
    if (wallMs < minMs && cpuMs < minMs) continue
    const from = task.ts
    const to = task.ts + (task.dur ?? 0)
    const parts = new Map<string, number>()
    for (const e of onMain) {
      if (e === task || e.ts < from || e.ts > to || e.name === 'RunTask') continue
      // Direct parts only: an event inside another part is counted in that part.
      const key =
        e.name === 'FunctionCall' && e.args?.data?.functionName
          ? `FunctionCall ${e.args.data.functionName}`
          : e.name
      if (!DIRECT.has(e.name)) continue
      parts.set(key, (parts.get(key) ?? 0) + (e.dur ?? 0) / 1000)
    }
    out.push({
      at: Math.round((task.ts - start.ts) / 1000),
      afterEnd: Math.round((task.ts - end.ts) / 1000),
      wallMs: Math.round(wallMs),
      cpuMs: Math.round(cpuMs),
      parts: [...parts]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 5)
        .map(([k, ms]) => `${k} ${Math.round(ms)}`)
        .join(', ')
        .concat(profile ? sampled(profile, from, to) : ''),
    })
  }
  return out
}

/** The events that are a task's own parts (not nested inside one another in the usual trace). */
const DIRECT = new Set([
  'TimerFire',
  'EventDispatch',
  'FunctionCall',
  'FireAnimationFrame',
  'RunMicrotasks',
  'UpdateLayoutTree',
  'Layout',
  'PrePaint',
  'Paint',
  'Commit',
  'MajorGC',
  'MinorGC',
  'V8.GC_SCAVENGER',
  'V8.GC_MARK_COMPACTOR',
  'ParseHTML',
  'HitTest',
])

/** One line per task, for the bench's output. */
export function tracedTaskLine(t: TracedTask): string {
  const when = t.afterEnd >= 0 ? `end + ${t.afterEnd} ms` : `at ${t.at} ms`
  const over = t.wallMs > 50 ? ' LONG' : ''
  return `${when}: ${t.wallMs} ms wall, ${t.cpuMs} ms CPU${over} — ${t.parts || 'no parts'}`
}
