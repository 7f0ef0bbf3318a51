/**
 * A bench piece to profile on its own: `node --cpu-prof bin/run-ts.mjs bench/profile.ts replan
 * [preset…]` re-plans one round per preset on the bench's 10,000 messages; `… replay [calls]`
 * replays the first `calls` model calls (recommended and opencode, scaled like the bench).
 */
import { PRESET_IDS, presetConfig, type PresetId } from '../src/config/presets.ts'
import { toEngineConfig } from '../src/config/validate.ts'
import { prepare } from '../src/engine/compaction/prepared.ts'
import { replay } from '../src/engine/compaction/replay.ts'
import { compact } from '../src/engine/compaction/run.ts'
import { STRATEGY_REGISTRY } from '../src/engine/strategies/index.ts'
import { createDigestSummarizer } from '../src/engine/summarize/digest.ts'
import { loadCounter } from '../src/engine/tokens/index.ts'
import { firstMessages, totalTokens, transcript, upToCalls } from './compaction.ts'
import { scaleTo } from './scale.ts'
import { median } from './timing.ts'

const [mode = 'replan', ...rest] = process.argv.slice(2)
const counter = await loadCounter('o200k_base')
const deps = { counter, summarizer: createDigestSummarizer() }
const { conversation } = transcript(10_000)
const ms = (t0: number) => Math.round((performance.now() - t0) * 10) / 10
/**
 * CPU milliseconds this process spent since `c0` (user + system): on a machine shared with other
 * work, wall-clock time mostly measures the queue for a core; this is the engine's own cost.
 */
const cpuMs = (c0: NodeJS.CpuUsage) => {
  const d = process.cpuUsage(c0)
  return Math.round((d.user + d.system) / 100) / 10
}

if (mode === 'replan') {
  const prepared = prepare(conversation, counter)
  const tokens = totalTokens(prepared)
  const ids = (rest.length > 0 ? rest : PRESET_IDS) as PresetId[]
  for (const id of ids) {
    const shipped = toEngineConfig(presetConfig(id))
    for (const [label, config] of [
      ['as shipped', shipped],
      ['scaled', scaleTo(shipped, tokens)],
    ] as const) {
      const times: number[] = []
      const cpu: number[] = []
      await compact(prepared, config, deps, STRATEGY_REGISTRY, { checkIdempotence: false })
      for (let i = 0; i < Number(process.env.RUNS ?? 7); i++) {
        const t0 = performance.now()
        const c0 = process.cpuUsage()
        // A new config object per re-plan, as every edit in the app gives the engine (see
        // bench/compaction.ts): caches keyed on the config's identity must not flatter this.
        const edited = structuredClone(config)
        await compact(prepared, edited, deps, STRATEGY_REGISTRY, { checkIdempotence: false })
        cpu.push(cpuMs(c0))
        times.push(ms(t0))
      }
      console.log(
        `${id} ${label}: wall median ${median(times)} ms, CPU median ${median(cpu)} ms [CPU ${cpu.join(', ')}]`,
      )
    }
  }
} else {
  const calls = Number(rest[0] ?? 1000)
  const n = upToCalls(conversation, calls)
  const prepared = prepare(firstMessages(conversation, n), counter)
  const tokens = totalTokens(prepared)
  for (const id of (rest.length > 1 ? rest.slice(1) : ['recommended', 'opencode']) as PresetId[]) {
    const config = scaleTo(toEngineConfig(presetConfig(id)), tokens)
    const times: number[] = []
    const cpu: number[] = []
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now()
      const c0 = process.cpuUsage()
      await replay(prepared, config, deps, STRATEGY_REGISTRY)
      cpu.push(cpuMs(c0))
      times.push(ms(t0))
    }
    console.log(
      `replay ${id} ${calls} calls (${n} messages): wall [${times.join(', ')}] ms, CPU [${cpu.join(', ')}] ms`,
    )
  }
}
