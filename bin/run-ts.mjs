#!/usr/bin/env node
// Runs a TypeScript entry point through tsx's loader, so `npm run bench` and the CLI need no build step.
// The project's own files are compiled by ts-hooks.mjs (no keepNames, as the shipped bundles),
// chained in front of tsx; without esbuild, tsx compiles them too.
import { register } from 'tsx/esm/api'
import { register as registerHooks } from 'node:module'
import { pathToFileURL } from 'node:url'
import { resolve } from 'node:path'
import { esbuildPath } from './bundle-cache.mjs'

register()
const root = resolve(import.meta.dirname, '..')
try {
  const data = {
    root: pathToFileURL(root).href + '/',
    esbuild: pathToFileURL(esbuildPath(root)).href,
  }
  registerHooks('./ts-hooks.mjs', import.meta.url, { data })
} catch {
  // tsx alone: the same code, each function's name redefined at run time.
}
const [entry, ...rest] = process.argv.slice(2)
if (!entry) {
  console.error('usage: run-ts.mjs FILE.ts [args…]')
  process.exit(2)
}
process.argv = [process.argv[0], resolve(entry), ...rest]
await import(pathToFileURL(resolve(entry)).href)
