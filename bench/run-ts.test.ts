import { execFileSync } from 'node:child_process'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = resolve(import.meta.dirname, '..')

describe('bin/run-ts.mjs', () => {
  it("compiles the project's TypeScript without keepNames, as the shipped bundles are built", () => {
    const out = execFileSync(
      process.execPath,
      [resolve(ROOT, 'bin/run-ts.mjs'), resolve(ROOT, 'bench/run-ts.fixture.ts')],
      { encoding: 'utf8' },
    )
    const { name, source, frame } = JSON.parse(out) as Record<string, string>
    // No name-setting wrapper around functions made at run time (tsx's compile adds one)...
    expect(source).toContain('const inner = () =>')
    expect(source).not.toContain('__name')
    // ...yet a function keeps its source name (esbuild renames only one that shadows a top-level
    // name, as in the shipped bundles), and stack frames point at the TypeScript lines.
    expect(name).toBe('inner')
    expect(frame).toMatch(/run-ts\.fixture\.ts:4:\d+/)
  })
})
