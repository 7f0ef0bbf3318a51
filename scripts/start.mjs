#!/usr/bin/env node
// `npm start` (the README's first command) serves the production build of the app, building it
// first only when the sources are newer than the build. Vite's dev server transforms ~430 modules
// one request at a time on a first visit (8–20 s on a loaded 2-core machine, issue 14); the built
// app paints the sample in about a second. `npm install` builds it once (the `prepare` script runs
// this file with --build-only), so the first `npm start` after install only serves. Development
// with hot reload stays `npm run dev`.
import { spawnSync } from 'node:child_process'
import { createReadStream, existsSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import { extname, join, normalize } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.jsonl': 'application/jsonl; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.wasm': 'application/wasm',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
}
const dist = join(root, 'dist')
const stamp = join(dist, '.built-from-sources')
const buildOnly = process.argv.includes('--build-only')

/** Everything the build reads: sources, the page, static files, the config, the lockfile. */
const INPUTS = [
  'src',
  'public',
  'index.html',
  'vite.config.ts',
  'package-lock.json',
  'tsconfig.json',
]

function newestInput() {
  let newest = 0
  const visit = (path) => {
    let st
    try {
      st = statSync(path)
    } catch {
      return
    }
    if (st.isDirectory()) {
      for (const name of readdirSync(path)) visit(join(path, name))
    } else if (!/\.test\.tsx?$/.test(path)) newest = Math.max(newest, st.mtimeMs)
  }
  for (const input of INPUTS) visit(join(root, input))
  return newest
}

function upToDate() {
  if (!existsSync(stamp) || !existsSync(join(dist, 'index.html'))) return false
  return statSync(stamp).mtimeMs >= newestInput()
}

const vite = join(root, 'node_modules', 'vite', 'bin', 'vite.js')
if (!existsSync(vite)) {
  // `npm install --omit=dev` (or a partial install): nothing to build with; never fail the install.
  console.error(
    'compaction-lab: vite is not installed; run `npm install` to build and start the app',
  )
  process.exit(buildOnly ? 0 : 1)
}

if (!upToDate()) {
  const started = Date.now()
  const build = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
  })
  if (build.status !== 0) process.exit(build.status ?? 1)
  writeFileSync(stamp, `${new Date().toISOString()}\n`)
  console.log(`compaction-lab: app built in ${((Date.now() - started) / 1000).toFixed(1)} s`)
}
if (buildOnly) process.exit(0)

serve(dist, 5173)

/**
 * A static server for the build (no Vite to load: the page is up a second sooner than with
 * `vite preview`). Localhost only; the port the README names, or the next free one.
 */
function serve(dir, port) {
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://localhost').pathname)
    const file = normalize(join(dir, path === '/' ? 'index.html' : path))
    if (!file.startsWith(dir) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404, { 'content-type': 'text/plain' })
      res.end('not found')
      return
    }
    res.writeHead(200, {
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      // Hashed assets never change; the page and samples are checked again.
      'cache-control': path.startsWith('/assets/')
        ? 'public, max-age=31536000, immutable'
        : 'no-cache',
    })
    createReadStream(file).pipe(res)
  })
  server.on('error', (error) => {
    if (error.code === 'EADDRINUSE' && port < 5200) serve(dir, port + 1)
    else throw error
  })
  server.listen(port, 'localhost', () => {
    console.log(`\n  compaction-lab  Local:   http://localhost:${port}/\n`)
  })
}
