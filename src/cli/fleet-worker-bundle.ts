import { fileURLToPath } from 'node:url'
import { cachedBundle } from '../../bin/bundle-cache.mjs'

/**
 * The pool workers' entry. A worker started on `fleet-worker.mjs` registers tsx and loads the
 * engine module by module through tsx's loader thread (about a second of CPU per worker, every
 * run). Instead the worker body is bundled once into one plain ES module (bin/bundle-cache.mjs),
 * cached beside node_modules and rebuilt only when one of its inputs changed; a worker then
 * starts in about a third of that. Anything going wrong falls back to the tsx entry.
 *
 * When the CLI itself runs from its bundle (bin/compaction-lab.mjs), `import.meta.url` here is
 * defined at bundling time as this file's own URL, so these paths stay right.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const BODY = fileURLToPath(new URL('./fleet-worker-body.ts', import.meta.url))
export const TSX_WORKER_ENTRY = new URL('./fleet-worker.mjs', import.meta.url)

/** The URL to start pool workers on: the cached bundle, or the tsx entry if it cannot be had. */
export async function fleetWorkerEntry(): Promise<URL> {
  try {
    return await cachedBundle({ root: ROOT, entry: BODY, name: 'fleet-worker' })
  } catch {
    return TSX_WORKER_ENTRY
  }
}
