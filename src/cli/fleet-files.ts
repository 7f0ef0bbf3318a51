import { readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { compareNames } from '../fleet/shard.ts'

export interface ListedFiles {
  /** Every file, each once, in code-unit order (what `--shard` slices). */
  readonly files: readonly string[]
  /** Each file's size in bytes (read while listing: the pool hands out the largest first). */
  readonly sizes: ReadonlyMap<string, number>
  /** Arguments that could not be listed (missing, unreadable), with why. */
  readonly unreadable: readonly { readonly name: string; readonly message: string }[]
}

/**
 * The files named by the arguments: a file as given, a folder recursively (hidden entries —
 * `.git`, editor swap files — skipped). Names keep the argument's spelling joined with the path
 * inside the folder, so the same command on another machine lists the same names.
 */
export async function listFiles(paths: readonly string[]): Promise<ListedFiles> {
  const files = new Set<string>()
  const sizes = new Map<string, number>()
  const unreadable: { name: string; message: string }[] = []
  const walk = async (path: string, top: boolean): Promise<void> => {
    let info
    try {
      info = await stat(path)
    } catch (error) {
      unreadable.push({ name: path, message: `cannot read: ${why(error)}` })
      return
    }
    if (info.isFile()) {
      files.add(path)
      sizes.set(path, info.size)
      return
    }
    if (!info.isDirectory()) {
      if (top) unreadable.push({ name: path, message: 'not a file or folder' })
      return
    }
    let entries
    try {
      entries = await readdir(path)
    } catch (error) {
      unreadable.push({ name: path, message: `cannot list: ${why(error)}` })
      return
    }
    for (const entry of entries.sort(compareNames)) {
      if (entry.startsWith('.')) continue
      await walk(join(path, entry), false)
    }
  }
  for (const p of paths) await walk(p, true)
  return { files: [...files].sort(compareNames), sizes, unreadable }
}

function why(error: unknown): string {
  if (error && typeof error === 'object' && 'code' in error) {
    const code = String((error as { code: unknown }).code)
    if (code === 'ENOENT') return 'no such file or folder'
    if (code === 'EACCES') return 'permission denied'
    return code
  }
  return error instanceof Error ? error.message : String(error)
}
