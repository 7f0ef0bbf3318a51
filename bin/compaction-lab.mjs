#!/usr/bin/env node
// The CLI ships as TypeScript source, so `npx compaction-lab …` works right after `npm install`
// with no build step. It runs from one bundle of src/cli/main.ts, built on first use and cached
// until a source file changes (bundle-cache.mjs): through tsx's loader every start spent about a
// second of CPU transpiling and loading ~150 modules, before any work (`--help` included). If the
// bundle cannot be had (no esbuild, a read-only checkout and tmp), tsx's loader runs the source.
import { cliBundle } from './cli-bundle.mjs'

async function loadCli() {
  try {
    return await import((await cliBundle()).href)
  } catch {
    const { register } = await import('tsx/esm/api')
    register()
    return import('../src/cli/main.ts')
  }
}

const { main } = await loadCli()
process.exitCode = await main(process.argv.slice(2))
