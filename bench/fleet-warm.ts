/**
 * One isolate's warm-up on the fleet (bench/FLEET.md, D7's pass): every file of FOLDER evaluated
 * PASSES times in this thread with the `recommended` preset; per pass this thread's CPU and the
 * whole process's (the difference: V8's helper threads). Then what the pool's replies cost to
 * clone: every file's outcomes through `v8.serialize`/`deserialize` (postMessage's format).
 * `node [v8 flags] bin/run-ts.mjs bench/fleet-warm.ts FOLDER [PASSES]`
 */
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { deserialize, serialize } from 'node:v8'
import { evaluatePath, fleetDeps } from '../src/cli/fleet-task.ts'
import { threadTimes } from '../src/cli/thread-cpu.ts'
import { presetConfig } from '../src/config/presets.ts'
import type { FleetConfig } from '../src/fleet/evaluate.ts'
import type { FleetOutcome } from '../src/fleet/types.ts'

const [folder, passArg = '3'] = process.argv.slice(2)
if (!folder) throw new Error('usage: bench/fleet-warm.ts FOLDER [PASSES]')
const paths = readdirSync(folder)
  .sort()
  .map((n) => join(folder, n))
const fleet: FleetConfig = { config: presetConfig('recommended'), preset: 'recommended' }
const deps = await fleetDeps(fleet.config)
const processMs = () => {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1000
}
const threadMs = () => threadTimes()?.cpuMs ?? Number.NaN
const s = (ms: number) => (ms / 1000).toFixed(2)
const first: FleetOutcome[][] = []
for (let pass = 1; pass <= Number(passArg); pass++) {
  const t0 = threadMs()
  const p0 = processMs()
  for (const path of paths) {
    const outcomes = await evaluatePath(path, fleet, deps)
    if (pass === 1) first.push(outcomes)
  }
  const thread = threadMs() - t0
  const all = processMs() - p0
  console.log(
    `pass ${pass}: this thread ${s(thread)} s, process ${s(all)} s, helpers ${s(all - thread)} s`,
  )
}
const c0 = threadMs()
let bytes = 0
for (const outcomes of first) {
  const b = serialize(outcomes)
  bytes += b.length
  deserialize(b)
}
console.log(
  `the replies: ${(bytes / 1e6).toFixed(2)} MB, ${(threadMs() - c0).toFixed(1)} ms CPU to clone`,
)
