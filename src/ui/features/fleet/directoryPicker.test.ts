import { strToU8, zipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import {
  directoryPickerOf,
  pickFolderSources,
  sourcesOfDirectory,
  type DirectoryLike,
  type FileLike,
} from './directoryPicker.ts'
import { readSource } from './sources.ts'

type Tree = { readonly [name: string]: string | Uint8Array | Error | Tree }

/** A directory handle over an in-memory tree, entries in the given (not sorted) order. */
function dirOf(name: string, tree: Tree): DirectoryLike {
  return {
    kind: 'directory',
    name,
    async *entries() {
      for (const [child, value] of Object.entries(tree)) {
        if (typeof value === 'string' || value instanceof Uint8Array || value instanceof Error) {
          const file: FileLike = {
            kind: 'file',
            name: child,
            getFile: () =>
              value instanceof Error
                ? Promise.reject(value)
                : Promise.resolve(new File([value as BlobPart], child)),
          }
          yield [child, file] as [string, FileLike]
        } else yield [child, dirOf(child, value)] as [string, DirectoryLike]
      }
    },
  }
}

describe('a folder picked through showDirectoryPicker', () => {
  it('lists every file by its path from the folder, hidden ones left out, archives expanded, sorted', async () => {
    const zip = zipSync({ 'c.json': strToU8('{}') })
    const dir = dirOf('runs', {
      'b.jsonl': '{"b":1}\n',
      deep: { 'a.json': '{"a":1}', '.git': { HEAD: 'x' } },
      '.DS_Store': 'x',
      __MACOSX: { '._b.jsonl': 'x' },
      'more.zip': zip,
    })
    const sources = await sourcesOfDirectory(dir)
    expect(sources.map((s) => s.name)).toEqual([
      'runs/b.jsonl',
      'runs/deep/a.json',
      'runs/more.zip/c.json',
    ])
    expect(await sources[1]?.file.text()).toBe('{"a":1}')
    // Files of a handle carry their size: posted to the worker as they are, not read here.
    expect(sources.map((s) => s.readHere)).toEqual([undefined, undefined, undefined])
  })

  it('reads a folder larger than one batch in full', async () => {
    const tree: Record<string, string> = {}
    for (let i = 0; i < 40; i++) tree[`f${String(i).padStart(2, '0')}.json`] = `{"i":${i}}`
    const sources = await sourcesOfDirectory(dirOf('big', tree))
    expect(sources).toHaveLength(40)
    expect(await sources[39]?.file.text()).toBe('{"i":39}')
  })

  it('a file that cannot be read fails on its own; the others are read', async () => {
    const sources = await sourcesOfDirectory(
      dirOf('runs', {
        'ok.json': '{}',
        'gone.json': new Error('A requested file was not found'),
        // An archive cut short inside its first entry: fflate reports "invalid zip data".
        'broken.zip': zipSync({ 'a.json': strToU8('{"a":1}'.repeat(2000)) }).slice(0, 40),
      }),
    )
    expect(sources.map((s) => s.name)).toEqual([
      'runs/broken.zip',
      'runs/gone.json',
      'runs/ok.json',
    ])
    expect(sources[0]?.unreadable).toBeTypeOf('string')
    sources.shift()
    await expect(readSource(sources[0]!)).rejects.toThrow('A requested file was not found')
    expect(await readSource(sources[1]!)).toBeInstanceOf(Blob)
  })

  it('a subfolder that cannot be listed fails on one row; the rest of the folder is read', async () => {
    const broken: DirectoryLike = {
      kind: 'directory',
      name: 'gone',
      // eslint-disable-next-line require-yield -- fails before its first entry, as a removed folder does
      async *entries() {
        throw new DOMException('A requested file or directory could not be found', 'NotFoundError')
      },
    }
    const dir = dirOf('runs', { 'ok.json': '{}' })
    const withBroken: DirectoryLike = {
      ...dir,
      async *entries() {
        yield* dir.entries()
        yield ['gone', broken] as [string, DirectoryLike]
      },
    }
    const sources = await sourcesOfDirectory(withBroken)
    expect(sources.map((s) => [s.name, s.unreadable])).toEqual([
      ['runs/gone/', 'A requested file or directory could not be found'],
      ['runs/ok.json', undefined],
    ])
  })

  it('closing the picker adds nothing; no picker or a refusal falls back to the folder input', async () => {
    const abort = () => Promise.reject(new DOMException('closed', 'AbortError'))
    const refuse = () => Promise.reject(new DOMException('sandboxed', 'SecurityError'))
    expect(directoryPickerOf({})).toBeNull()
    expect(await pickFolderSources({})).toBe('fallback')
    expect(await pickFolderSources({ showDirectoryPicker: abort })).toEqual([])
    expect(await pickFolderSources({ showDirectoryPicker: refuse })).toBe('fallback')
    const picked = { showDirectoryPicker: () => Promise.resolve(dirOf('p', { 'x.json': '{}' })) }
    expect((await pickFolderSources(picked)) as unknown[]).toHaveLength(1)
  })
})
