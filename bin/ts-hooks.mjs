// Module hooks for run-ts.mjs, chained in front of tsx's: the project's own TypeScript files are
// compiled here, everything else (resolution included) is left to tsx.
//
// Why not tsx's compile: it always passes esbuild `keepNames`, which wraps every function made at
// run time in a `__name(fn, "name")` call that redefines the function's `name`. Neither shipped
// runtime does that (the app's worker is Vite's bundle, the CLI runs esbuild's bundle without
// keepNames, see cli-bundle.mjs), and nothing here reads a function's name: a file compiled on
// its own keeps its identifiers (esbuild renames only a nested one that shadows a top-level one,
// as those bundles do), so V8 names functions as the source does. In the engine's hot loops those calls
// cost about a tenth of a replay (bench/RESULTS.md, "How the engine runs here").
import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'

/** esbuild's module once imported (null: not found, tsx compiles everything). */
let esbuild = null
let root = null

/** `data`: the checkout's root URL and esbuild's path, from run-ts.mjs (it found them). */
export function initialize(data) {
  root = data.root
  // Without esbuild here, every file goes to tsx as before.
  esbuild = import(data.esbuild).then(
    (m) => m.default ?? m,
    () => null,
  )
}

const TS = /\.(ts|mts)$/

export async function load(url, context, nextLoad) {
  const compiler = TS.test(url) && url.startsWith(root) && !url.includes('/node_modules/')
  const es = compiler && esbuild ? await esbuild : null
  if (!es) return nextLoad(url, context)
  const path = fileURLToPath(url)
  const { code } = await es.transform(await readFile(path, 'utf8'), {
    loader: 'ts',
    format: 'esm',
    target: `node${process.versions.node}`,
    sourcemap: 'inline',
    sourcefile: path,
  })
  return { format: 'module', source: code, shortCircuit: true }
}
