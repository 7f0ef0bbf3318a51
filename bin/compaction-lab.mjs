#!/usr/bin/env node
// The CLI ships as TypeScript source; tsx's loader compiles it on the fly, so
// `npx compaction-lab …` works right after `npm install` with no build step.
import { register } from 'tsx/esm/api'

register()
const { main } = await import('../src/cli/main.ts')
process.exitCode = await main(process.argv.slice(2))
