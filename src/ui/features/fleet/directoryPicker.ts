/**
 * A folder picked through the File System Access API (`showDirectoryPicker`, Chromium): read
 * entry by entry, asynchronously, in small batches that yield to the event loop. Picked through
 * `<input webkitdirectory>` instead, Chromium builds the whole folder's FileList in one native task
 * on the main thread before any page code runs (55–180 ms for 200 files in the fleet bench, nothing
 * of ours in it and not splittable); the handle's entries arrive a batch at a time and each
 * `getFile()` answers in a task of its own, so no task grows with the folder. The input stays the
 * fallback where the API is missing (Firefox, Safari). Nothing is uploaded: the handle is read here.
 */
import { isHidden, isZip, unzipSources, type FleetSource } from './sources.ts'

/** Files read at once before yielding: several `getFile()` calls in flight, no task grows with the folder. */
const BATCH = 16

/** The part of a directory handle the walk uses (the DOM's `FileSystemDirectoryHandle`; tests fake it). */
export interface DirectoryLike {
  readonly kind: 'directory'
  readonly name: string
  entries(): AsyncIterable<[string, DirectoryLike | FileLike]>
}

/** The part of a file handle the walk uses. */
export interface FileLike {
  readonly kind: 'file'
  readonly name: string
  getFile(): Promise<File>
}

/** `window.showDirectoryPicker`, where the browser has it. */
export type DirectoryPicker = (options?: {
  readonly id?: string
  readonly mode?: 'read' | 'readwrite'
}) => Promise<DirectoryLike>

/** The browser's directory picker, or null where the File System Access API is missing. */
export function directoryPickerOf(win: object): DirectoryPicker | null {
  const pick = (win as { showDirectoryPicker?: unknown }).showDirectoryPicker
  return typeof pick === 'function' ? (pick.bind(win) as DirectoryPicker) : null
}

const yieldToEventLoop = () => new Promise<void>((resolve) => setTimeout(resolve, 0))

const why = (error: unknown) => (error instanceof Error ? error.message : String(error))

/**
 * One file's source: archives expanded. A file that cannot be read (or an archive that cannot be
 * inflated) fails on its own row, as a file the worker cannot read does; the walk goes on.
 */
async function sourcesOfHandle(handle: FileLike, path: string): Promise<FleetSource[]> {
  try {
    const file = await handle.getFile()
    return isZip(file) ? await unzipSources(file, path) : [{ name: path, file }]
  } catch (error) {
    return [{ name: path, file: new Blob([]), unreadable: why(error) }]
  }
}

/**
 * Every file under `dir`, named by its path from the picked folder (the folder's own name first,
 * as `webkitRelativePath` has it), hidden files and folders left out, `.zip` archives expanded,
 * sorted by path. Files are read `BATCH` at a time, yielding to the event loop between batches.
 */
export async function sourcesOfDirectory(
  dir: DirectoryLike,
  prefix: string = dir.name,
): Promise<FleetSource[]> {
  const out: FleetSource[] = []
  let batch: Promise<FleetSource[]>[] = []
  const flush = async () => {
    for (const sources of await Promise.all(batch)) for (const s of sources) out.push(s)
    batch = []
    await yieldToEventLoop()
  }
  const walk = async (d: DirectoryLike, at: string): Promise<void> => {
    try {
      for await (const [name, handle] of d.entries()) {
        const path = `${at}/${name}`
        if (isHidden(name)) continue
        if (handle.kind === 'directory') await walk(handle, path)
        else {
          batch.push(sourcesOfHandle(handle, path))
          if (batch.length >= BATCH) await flush()
        }
      }
    } catch (error) {
      // A folder that cannot be listed (removed or moved while read): one failed row names it,
      // and the rest of the folder is still evaluated.
      out.push({ name: `${at}/`, file: new Blob([]), unreadable: why(error) })
    }
  }
  await walk(dir, prefix)
  await flush()
  // Entries come in the browser's order; the input's FileList and the drop's walk are by path.
  return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
}

/**
 * Ask for a folder and read it. `[]`: the user closed the picker. `'fallback'`: the API is missing
 * or refused for another reason (a sandboxed frame, a policy), so the caller opens the folder input.
 */
export async function pickFolderSources(win: object): Promise<FleetSource[] | 'fallback'> {
  const pick = directoryPickerOf(win)
  if (!pick) return 'fallback'
  let dir: DirectoryLike
  try {
    dir = await pick({ id: 'compaction-lab-fleet', mode: 'read' })
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') return []
    return 'fallback'
  }
  return sourcesOfDirectory(dir)
}
