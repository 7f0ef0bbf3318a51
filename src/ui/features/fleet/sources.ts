/**
 * Where a fleet's files come from, all read in this browser: picked files, a picked folder
 * (`showDirectoryPicker` in directoryPicker.ts where the browser has it, else `webkitdirectory`),
 * dropped files and folders (`webkitGetAsEntry`, walked recursively), and `.zip` archives,
 * inflated entry by entry as the archive streams in (fflate), so a large archive is never held
 * compressed and inflated at once.
 */
import { Unzip, UnzipInflate } from 'fflate'

export interface FleetSource {
  /** Unique in the fleet: the path inside the folder or archive. */
  readonly name: string
  readonly file: Blob
  /**
   * A file of a file input (picked): read here and its bytes transferred, never posted as a File.
   * Chromium creates a picked folder's files without their size and date, and serialising such a
   * File for `postMessage` fetches them synchronously from the browser process on the main thread
   * (12–80 ms per file in the fleet's `post` under load, CDP profile of 200 files picked); the
   * asynchronous read needs no such call. Dropped files (`entry.file()`) carry them already.
   */
  readonly readHere?: true
  /**
   * The file was listed but could not be read (a folder picked through `showDirectoryPicker`
   * whose `getFile()` failed): its row fails with this reason, as a file the worker cannot read.
   */
  readonly unreadable?: string
}

/** The bytes a worker evaluates: the Blob itself, a picked file's bytes (`readHere`), or why not. */
export function readSource(source: FleetSource): Promise<ArrayBuffer | Blob> {
  if (source.unreadable !== undefined) return Promise.reject(new Error(source.unreadable))
  return source.readHere ? source.file.arrayBuffer() : Promise.resolve(source.file)
}

/** Dot files and folders and macOS archive metadata: never part of a fleet. */
export const isHidden = (path: string) =>
  path.split('/').some((p) => p.startsWith('.') || p === '__MACOSX')
export const isZip = (file: File) => /\.zip$/i.test(file.name) || file.type === 'application/zip'

/** Picked or dropped files: archives expanded, hidden files left out. */
export async function sourcesOfFiles(files: readonly File[]): Promise<FleetSource[]> {
  const out: FleetSource[] = []
  for (const file of files) {
    const path = (file as File & { webkitRelativePath?: string }).webkitRelativePath || file.name
    if (isHidden(path)) continue
    if (isZip(file)) for (const s of await unzipSources(file, path)) out.push(s)
    else out.push({ name: path, file, readHere: true })
  }
  return out
}

/** Every file of an archive, inflated while the archive streams in. */
export async function unzipSources(archive: Blob, prefix: string): Promise<FleetSource[]> {
  const out: FleetSource[] = []
  const pending: Promise<void>[] = []
  const unzip = new Unzip((entry) => {
    if (entry.name.endsWith('/') || isHidden(entry.name)) return
    const chunks: Uint8Array<ArrayBuffer>[] = []
    pending.push(
      new Promise<void>((resolve, reject) => {
        entry.ondata = (error, chunk, final) => {
          if (error) return reject(error)
          chunks.push(chunk as Uint8Array<ArrayBuffer>)
          if (final) {
            out.push({ name: `${prefix}/${entry.name}`, file: new Blob(chunks) })
            resolve()
          }
        }
        entry.start()
      }),
    )
  })
  unzip.register(UnzipInflate)
  const reader = archive.stream().getReader()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    unzip.push(value)
  }
  unzip.push(new Uint8Array(0), true)
  await Promise.all(pending)
  return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
}

interface Entry {
  readonly isFile: boolean
  readonly isDirectory: boolean
  readonly name: string
  readonly fullPath: string
}
interface FileEntry extends Entry {
  file(ok: (file: File) => void, fail: (error: unknown) => void): void
}
interface DirectoryEntry extends Entry {
  createReader(): { readEntries(ok: (entries: Entry[]) => void, fail: (e: unknown) => void): void }
}

async function walk(entry: Entry, out: File[], paths: string[]): Promise<void> {
  if (entry.name.startsWith('.')) return
  if (entry.isFile) {
    const file = await new Promise<File>((ok, fail) => (entry as FileEntry).file(ok, fail))
    out.push(file)
    paths.push(entry.fullPath.replace(/^\//, ''))
    return
  }
  if (!entry.isDirectory) return
  const reader = (entry as DirectoryEntry).createReader()
  // readEntries returns at most ~100 entries a call: read until it returns none.
  for (;;) {
    const batch = await new Promise<Entry[]>((ok, fail) => reader.readEntries(ok, fail))
    if (batch.length === 0) break
    for (const child of batch) await walk(child, out, paths)
  }
}

/** A drop's files, folders walked (their paths kept); null when the drop carried no files. */
export async function sourcesOfDrop(data: DataTransfer): Promise<FleetSource[] | null> {
  const entries: Entry[] = []
  for (const item of Array.from(data.items)) {
    if (item.kind !== 'file') continue
    const entry = (
      item as DataTransferItem & { webkitGetAsEntry?: () => Entry | null }
    ).webkitGetAsEntry?.()
    if (entry) entries.push(entry)
  }
  if (entries.length === 0) {
    const files = Array.from(data.files)
    return files.length > 0 ? sourcesOfFiles(files) : null
  }
  const files: File[] = []
  const paths: string[] = []
  for (const e of entries) await walk(e, files, paths)
  const out: FleetSource[] = []
  for (let i = 0; i < files.length; i++) {
    const file = files[i] as File
    const path = paths[i] as string
    if (isZip(file)) for (const s of await unzipSources(file, path)) out.push(s)
    else out.push({ name: path, file })
  }
  return out
}
