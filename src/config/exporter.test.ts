import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { EXPORTER_NAME, EXPORTER_VERSION, exporterName } from './exporter.ts'

describe('exporter', () => {
  it('names the package and version package.json declares', () => {
    const pkg = JSON.parse(
      readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
    ) as {
      name: string
      version: string
    }
    expect({ name: EXPORTER_NAME, version: EXPORTER_VERSION }).toEqual({
      name: pkg.name,
      version: pkg.version,
    })
    expect(exporterName()).toBe(`${pkg.name} ${pkg.version}`)
  })
})
