// One TypeScript entry bundled into one plain ES module with the esbuild that tsx itself depends
// on, cached under node_modules/.cache and rebuilt only when one of its inputs changed. Loading
// TypeScript through tsx's loader costs about a second of CPU per start (each module transpiled
// on tsx's loader thread and handed over by message: 0.6 s on that thread and 0.4 s compiling on
// the main one for the CLI), every run; the bundle loads in a fraction of that. Plain JavaScript
// because bin/compaction-lab.mjs uses it before any TypeScript can be loaded; the pool workers'
// bundle (src/cli/fleet-worker-bundle.ts) uses it too.
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

/**
 * The path of esbuild as tsx resolves it (a dependency of tsx, so `npm ci` always installs it
 * there), found from the checkout's root, not from this module's own URL, which the CLI's bundle
 * defines as another module's URL (cli-bundle.mjs). run-ts.mjs hands it to ts-hooks.mjs.
 */
export function esbuildPath(root) {
  const require = createRequire(join(root, 'package.json'))
  return createRequire(require.resolve('tsx/esm/api')).resolve('esbuild')
}

function loadEsbuild(root) {
  return createRequire(join(root, 'package.json'))(esbuildPath(root))
}

/** One input as last seen: [path relative to the checkout, mtime, size], or null if it is gone. */
async function stampOf(root, path) {
  try {
    const s = await stat(join(root, path))
    return [path, s.mtimeMs, s.size]
  } catch {
    return null
  }
}

async function isFresh(root, manifestPath, version) {
  let manifest
  try {
    manifest = JSON.parse(await readFile(manifestPath, 'utf8'))
  } catch {
    return false
  }
  if (manifest.esbuild !== version || !(manifest.inputs?.length > 0)) return false
  const now = await Promise.all(manifest.inputs.map(([path]) => stampOf(root, path)))
  return manifest.inputs.every(([, m, s], k) => now[k]?.[1] === m && now[k]?.[2] === s)
}

async function cacheDir(root) {
  for (const dir of [
    join(root, 'node_modules/.cache/compaction-lab'),
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

/**
 * The URL of `name`.mjs, the bundle of `entry` (absolute path) under the checkout `root`: reused
 * while every input file has the mtime and size it had at the build, else built again. `define`
 * goes to esbuild as is. Rejects when esbuild is missing or the build fails (callers fall back to
 * tsx).
 */
export async function cachedBundle({ root, entry, name, define = {} }) {
  const esbuild = loadEsbuild(root)
  const dir = await cacheDir(root)
  const out = join(dir, `${name}.mjs`)
  const manifestPath = join(dir, `${name}.inputs.json`)
  if (await isFresh(root, manifestPath, esbuild.version)) return pathToFileURL(out)
  // Each process builds to its own names and renames: concurrent runs never see half a file.
  const tmp = `${out}.${process.pid}.tmp`
  // mtimes are compared with the build's start (less a second for coarse file-system clocks).
  const started = Date.now() - 1000
  const result = await esbuild.build({
    entryPoints: [entry],
    absWorkingDir: root,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: tmp,
    metafile: true,
    logLevel: 'silent',
    define,
  })
  const inputs = await Promise.all(
    Object.keys(result.metafile?.inputs ?? {}).map((p) => stampOf(root, p)),
  )
  if (inputs.some((s) => s === null)) throw new Error('an input vanished during the build')
  await rename(tmp, out)
  // A file saved while esbuild read it may be in the bundle in its old form: use this bundle
  // once, but write no manifest, so the next start builds again.
  if (inputs.some((s) => s[1] >= started)) return pathToFileURL(out)
  await writeFile(
    `${manifestPath}.${process.pid}.tmp`,
    JSON.stringify({ esbuild: esbuild.version, inputs }),
  )
  await rename(`${manifestPath}.${process.pid}.tmp`, manifestPath)
  return pathToFileURL(out)
}
