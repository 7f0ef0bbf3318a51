import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { cliBundle, READS_IMPORT_META } from '../../bin/cli-bundle.mjs'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))

describe('the CLI’s bundle', () => {
  it('has one module that reads import.meta (its define would be wrong for any other)', async () => {
    const url = await cliBundle()
    const manifest = JSON.parse(
      readFileSync(fileURLToPath(new URL('./cli.inputs.json', url)), 'utf8'),
    ) as { inputs: [string, number, number][] }
    const names = manifest.inputs.map(([p]) => p)
    expect(names).toContain('src/cli/main.ts')
    expect(names).toContain(READS_IMPORT_META)
    const reading = names.filter((p) => /\bimport\.meta\b/.test(readFileSync(ROOT + p, 'utf8')))
    expect(reading).toEqual([READS_IMPORT_META])
  })
})
