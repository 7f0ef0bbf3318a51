import { zipSync, strToU8 } from 'fflate'
import { describe, expect, it } from 'vitest'
import { sourcesOfFiles, unzipSources } from './sources.ts'

describe('fleet sources', () => {
  it('inflates every file of a .zip as it streams, hidden entries and folders left out', async () => {
    const zip = zipSync({
      'runs/a.jsonl': strToU8('{"a":1}\n'),
      'runs/deep/b.json': strToU8('{"b":2}'),
      'runs/.DS_Store': strToU8('x'),
      '__MACOSX/runs/._a.jsonl': strToU8('x'),
    })
    const sources = await unzipSources(new Blob([zip as Uint8Array<ArrayBuffer>]), 'fleet.zip')
    expect(sources.map((s) => s.name)).toEqual([
      'fleet.zip/runs/a.jsonl',
      'fleet.zip/runs/deep/b.json',
    ])
    expect(await sources[1]?.file.text()).toBe('{"b":2}')
  })

  it('keeps picked files by their folder path and expands archives among them', async () => {
    const zip = zipSync({ 'c.json': strToU8('{}') })
    const file = new File(['{"x":1}'], 'x.json')
    Object.defineProperty(file, 'webkitRelativePath', { value: 'picked/x.json' })
    const sources = await sourcesOfFiles([
      file,
      new File([zip as Uint8Array<ArrayBuffer>], 'more.zip'),
      new File(['x'], '.hidden'),
    ])
    expect(sources.map((s) => s.name)).toEqual(['picked/x.json', 'more.zip/c.json'])
    // A picked file is read on the page and its bytes transferred; an archive's entry is a Blob.
    expect(sources.map((s) => s.readHere)).toEqual([true, undefined])
  })
})
