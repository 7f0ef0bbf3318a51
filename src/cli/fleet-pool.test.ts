import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { presetConfig } from '../config/presets.ts'
import type { FleetOutcome } from '../fleet/types.ts'
import { evaluatePaths } from './fleet-pool.ts'

const CRASHING = new URL('./testing/crashing-fleet-worker.mjs', import.meta.url)

describe('the fleet pool', () => {
  it('fails only the file a dead worker held; this thread and fresh workers finish the rest', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cl-pool-'))
    const paths = [0, 1, 2, 3, 4].map((k) => {
      const path = join(dir, `chat-${k}.json`)
      const messages = [
        { role: 'user', content: `Question ${k}: why does the loader fail on empty files?` },
        { role: 'assistant', content: `Answer ${k}: it reads past the end.` },
      ]
      writeFileSync(path, JSON.stringify({ model: 'gpt-4o', messages }))
      return path
    })
    const fleet = { config: presetConfig('recommended'), preset: 'recommended' }
    const seen: string[] = []
    const { results, stats } = await evaluatePaths(paths, fleet, 2, (p) => seen.push(p), {
      entry: CRASHING,
    })
    // Every file has exactly one outcome, reported once.
    expect([...results.keys()].sort()).toEqual([...paths].sort())
    expect([...seen].sort()).toEqual([...paths].sort())
    const crashed = [...results.values()].filter((o: readonly FleetOutcome[]) =>
      o.some((x) => x.kind === 'failed' && x.failure.message === 'worker crashed: boom'),
    )
    const rows = [...results.values()].filter((o) => o.every((x) => x.kind === 'row'))
    // Each worker dies on the file it took (a worker starts before this thread has loaded its
    // tokenizer, so in practice some do: 2 of 5 in a run here); this thread evaluates the others.
    expect(crashed.length + rows.length).toBe(paths.length)
    expect(rows.length).toBe(stats.mainFiles)
    expect(rows.length).toBeGreaterThan(0)
  })
})
