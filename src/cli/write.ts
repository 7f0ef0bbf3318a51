import { randomBytes } from 'node:crypto'
import { open, rename, stat, unlink } from 'node:fs/promises'
import { basename, dirname, join, resolve } from 'node:path'

/** One file the command writes, with its contents already computed. */
export interface Output {
  /** The flag that named it (`--out`, `--report`…), for messages. */
  readonly flag: string
  readonly path: string
  readonly content: string
}

export type WriteOutcome =
  { readonly ok: true } | { readonly ok: false; readonly path: string; readonly message: string }

/**
 * Write every output or none (issue 10): all contents are computed before this is called; each
 * goes to a temporary file beside its target (same directory, so the rename is atomic) and only
 * when every temporary file is complete are they renamed into place. An unwritable path (missing
 * directory, no permission, a directory in the way) is found before any target is touched, and
 * its message names the path. Never throws.
 *
 * What remains non-atomic: the renames themselves run one after the other, so a failure between
 * two renames (the disk vanishing mid-way) can leave the first target replaced. Every ordinary
 * failure happens earlier, while writing the temporary files.
 */
export async function writeOutputsAtomically(outputs: readonly Output[]): Promise<WriteOutcome> {
  const temps: { temp: string; path: string }[] = []
  const cleanup = async () => {
    await Promise.all(temps.map((t) => unlink(t.temp).catch(() => undefined)))
  }
  for (const o of outputs) {
    const target = resolve(o.path)
    const isDir = await stat(target).then(
      (s) => s.isDirectory(),
      () => false,
    )
    if (isDir) {
      await cleanup()
      return { ok: false, path: o.path, message: `${o.flag} ${o.path}: is a directory` }
    }
    const temp = join(
      dirname(target),
      `.${basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`,
    )
    try {
      const handle = await open(temp, 'wx')
      temps.push({ temp, path: target })
      try {
        await handle.writeFile(o.content)
        await handle.sync()
      } finally {
        await handle.close()
      }
    } catch (error) {
      await cleanup()
      return {
        ok: false,
        path: o.path,
        message: `${o.flag} ${o.path}: cannot write: ${reason(error)}`,
      }
    }
  }
  for (let i = 0; i < temps.length; i++) {
    const t = temps[i] as { temp: string; path: string }
    try {
      await rename(t.temp, t.path)
    } catch (error) {
      await Promise.all(temps.slice(i).map((r) => unlink(r.temp).catch(() => undefined)))
      const o = outputs[i] as Output
      return {
        ok: false,
        path: o.path,
        message: `${o.flag} ${o.path}: cannot write: ${reason(error)}`,
      }
    }
  }
  return { ok: true }
}

/** `ENOENT: no such file or directory` rather than the full Node message with the temp path. */
function reason(error: unknown): string {
  if (error && typeof error === 'object' && 'code' in error) {
    const code = String((error as { code: unknown }).code)
    const known: Record<string, string> = {
      ENOENT: 'the directory does not exist',
      EACCES: 'permission denied',
      EPERM: 'operation not permitted',
      EROFS: 'read-only file system',
      ENOSPC: 'no space left on the device',
      ENOTDIR: 'a part of the path is not a directory',
      EISDIR: 'is a directory',
      ENAMETOOLONG: 'the name is too long',
    }
    return `${known[code] ?? 'error'} (${code})`
  }
  return error instanceof Error ? error.message : String(error)
}
