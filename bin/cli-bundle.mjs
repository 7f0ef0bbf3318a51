// The CLI's bundle: src/cli/main.ts in one plain ES module, cached (bundle-cache.mjs).
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { cachedBundle } from './bundle-cache.mjs'

const root = fileURLToPath(new URL('../', import.meta.url))

/**
 * The module of the CLI that reads `import.meta.url` (the pool workers' entry finds its sibling
 * files by it). esbuild's `define` replaces `import.meta.url` in every module of the bundle, so
 * it must be the only one: src/cli/cli-bundle.test.ts checks the bundle's inputs.
 */
export const READS_IMPORT_META = 'src/cli/fleet-worker-bundle.ts'

/** The URL of the CLI's bundle, built if no fresh one is cached; rejects if it cannot be built. */
export function cliBundle() {
  return cachedBundle({
    root,
    entry: join(root, 'src/cli/main.ts'),
    name: 'cli',
    define: {
      'import.meta.url': JSON.stringify(new URL(`../${READS_IMPORT_META}`, import.meta.url).href),
    },
  })
}
