import { readFileSync, statSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { fleetWorkerEntry, TSX_WORKER_ENTRY } from './fleet-worker-bundle.ts'

describe('the pool workers’ bundled entry', () => {
  it('is built once, reused while its inputs are unchanged, rebuilt when one changed', async () => {
    const entry = await fleetWorkerEntry()
    expect(entry.href).not.toBe(TSX_WORKER_ENTRY.href)
    expect(entry.pathname).toMatch(/compaction-lab\/fleet-worker\.mjs$/)
    const path = fileURLToPath(entry)
    const manifestPath = fileURLToPath(new URL('./fleet-worker.inputs.json', entry))
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
      inputs: [string, number, number][]
    }
    // Every source the worker runs is an input, so editing any of them invalidates the bundle.
    const names = manifest.inputs.map(([p]) => p)
    expect(names).toContain('src/cli/fleet-worker-body.ts')
    expect(names.some((p) => p.startsWith('src/engine/'))).toBe(true)

    const built = statSync(path).mtimeMs
    expect((await fleetWorkerEntry()).href).toBe(entry.href)
    expect(statSync(path).mtimeMs).toBe(built)

    const first = manifest.inputs[0] as [string, number, number]
    first[1] -= 1000 // as if that file had been edited since the build
    writeFileSync(manifestPath, JSON.stringify(manifest))
    expect((await fleetWorkerEntry()).href).toBe(entry.href)
    expect(statSync(path).mtimeMs).not.toBe(built)
  })
})
