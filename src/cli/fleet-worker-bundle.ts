import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

/**
 * The pool workers' entry. A worker started on `fleet-worker.mjs` registers tsx and loads the
 * engine module by module through tsx's loader thread (about a second of CPU per worker, every
 * run). Instead the worker body is bundled once into one plain ES module with the esbuild that tsx
 * itself depends on, cached beside node_modules and rebuilt only when one of its inputs changed;
 * a worker then starts in about a third of that. Anything going wrong falls back to the tsx entry.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const BODY = fileURLToPath(new URL('./fleet-worker-body.ts', import.meta.url))
export const TSX_WORKER_ENTRY = new URL('./fleet-worker.mjs', import.meta.url)

/** The part of esbuild's API used here (its types are not one of our dependencies). */
interface Esbuild {
  readonly version: string
  build(options: Record<string, unknown>): Promise<{
    readonly metafile?: { readonly inputs: Readonly<Record<string, unknown>> }
  }>
}

/** One input of the bundle as last seen: its path (relative to the checkout), mtime, size. */
type Stamp = readonly [path: string, mtimeMs: number, size: number]

interface Manifest {
  readonly esbuild: string
  readonly inputs: readonly Stamp[]
}

/** esbuild as tsx resolves it (a dependency of tsx, so `npm ci` always installs it there). */
function loadEsbuild(): Esbuild {
  const require = createRequire(import.meta.url)
  const tsx = require.resolve('tsx/esm/api')
  return createRequire(tsx)('esbuild') as Esbuild
}

async function stampOf(path: string): Promise<Stamp | null> {
  try {
    const s = await stat(join(ROOT, path))
    return [path, s.mtimeMs, s.size]
  } catch {
    return null
  }
}

async function isFresh(manifestPath: string, esbuild: Esbuild): Promise<boolean> {
  let manifest: Manifest
  try {
    manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as Manifest
  } catch {
    return false
  }
  if (manifest.esbuild !== esbuild.version || manifest.inputs.length === 0) return false
  const now = await Promise.all(manifest.inputs.map(([path]) => stampOf(path)))
  return manifest.inputs.every(([, m, s], k) => now[k]?.[1] === m && now[k]?.[2] === s)
}

async function cacheDir(): Promise<string> {
  for (const dir of [
    join(ROOT, 'node_modules/.cache/compaction-lab'),
    join(tmpdir(), 'compaction-lab'),
  ]) {
    try {
      await mkdir(dir, { recursive: true })
      return dir
    } catch {
      // read-only checkout: try the next place
    }
  }
  throw new Error('no writable cache folder')
}

/** Build (or reuse) the bundle; rejects when esbuild is missing or the build fails. */
async function bundledEntry(): Promise<URL> {
  const esbuild = loadEsbuild()
  const dir = await cacheDir()
  const out = join(dir, 'fleet-worker.mjs')
  const manifestPath = join(dir, 'fleet-worker.inputs.json')
  if (await isFresh(manifestPath, esbuild)) return pathToFileURL(out)
  // Each process builds to its own names and renames: concurrent runs never see half a file.
  const tmp = `${out}.${process.pid}.tmp`
  const result = await esbuild.build({
    entryPoints: [BODY],
    absWorkingDir: ROOT,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: tmp,
    metafile: true,
    logLevel: 'silent',
  })
  const inputs = await Promise.all(Object.keys(result.metafile?.inputs ?? {}).map(stampOf))
  if (inputs.some((s) => s === null)) throw new Error('an input vanished during the build')
  await rename(tmp, out)
  const manifest: Manifest = { esbuild: esbuild.version, inputs: inputs as Stamp[] }
  await writeFile(`${manifestPath}.${process.pid}.tmp`, JSON.stringify(manifest))
  await rename(`${manifestPath}.${process.pid}.tmp`, manifestPath)
  return pathToFileURL(out)
}

/** The URL to start pool workers on: the cached bundle, or the tsx entry if it cannot be had. */
export async function fleetWorkerEntry(): Promise<URL> {
  try {
    return await bundledEntry()
  } catch {
    return TSX_WORKER_ENTRY
  }
}
