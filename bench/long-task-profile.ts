/**
 * What ran inside each long task: a CDP CPU profile (`Profiler.start` … `Profiler.stop`) cut at
 * the Long Tasks API's boundaries, each task summarised by the functions its samples were in.
 * The bench's `--profile` prints it. Under load a task's duration includes time the renderer was
 * descheduled; its samples are what our code (or Chromium's native work, `(program)`) cost.
 */

/** The part of a `Profiler.Profile` read here. */
export interface CpuProfile {
  readonly nodes: readonly {
    readonly id: number
    readonly callFrame: {
      readonly functionName: string
      readonly url: string
      readonly lineNumber: number
    }
    readonly children?: readonly number[]
  }[]
  /** Microseconds, on the same clock as the samples. */
  readonly startTime: number
  readonly samples: readonly number[]
  readonly timeDeltas: readonly number[]
}

export interface LongTask {
  /** `performance.now()` ms, like `startedAtMs`. */
  readonly start: number
  readonly duration: number
}

type Node = CpuProfile['nodes'][number]

function frameName(node: Node): string {
  const f = node.callFrame
  const file = f.url.split('/').pop() ?? ''
  return file ? `${f.functionName || '(anonymous)'} ${file}:${f.lineNumber + 1}` : f.functionName
}

/**
 * One line per long task: its duration, the milliseconds sampled in it (idle excluded), and the
 * `top` functions by inclusive time (each frame once per sample, so recursion counts once).
 * `startedAtMs` is `performance.now()` read just after the profiler started: the profile's clock
 * is aligned on it (a few ms of slack, fine for tasks over 50 ms).
 */
export function longTaskLines(
  profile: CpuProfile,
  tasks: readonly LongTask[],
  startedAtMs: number,
  top = 6,
): string[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]))
  const parent = new Map<number, number>()
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
  const at: number[] = []
  let t = profile.startTime
  for (const d of profile.timeDeltas) at.push((t += d))
  const toProfileUs = (ms: number) => profile.startTime + (ms - startedAtMs) * 1000
  return tasks.map((task) => {
    const from = toProfileUs(task.start)
    const to = toProfileUs(task.start + task.duration)
    const inclusive = new Map<string, number>()
    let sampledUs = 0
    profile.samples.forEach((id, k) => {
      const time = at[k] as number
      if (time < from || time > to) return
      const leaf = byId.get(id)
      if (!leaf || leaf.callFrame.functionName === '(idle)') return
      const us = profile.timeDeltas[k + 1] ?? profile.timeDeltas[k] ?? 0
      sampledUs += us
      const seen = new Set<string>()
      for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
        const node = byId.get(cur)
        if (!node || node.callFrame.functionName === '(root)') continue
        const name = frameName(node)
        if (seen.has(name)) continue
        seen.add(name)
        inclusive.set(name, (inclusive.get(name) ?? 0) + us)
      }
    })
    const heaviest = [...inclusive]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, us]) => `${Math.round(us / 1000)} ms ${name}`)
    return (
      `task at ${Math.round(task.start - startedAtMs)} ms, ${Math.round(task.duration)} ms ` +
      `(${Math.round(sampledUs / 1000)} ms sampled): ${heaviest.join('; ') || 'no samples'}`
    )
  })
}
