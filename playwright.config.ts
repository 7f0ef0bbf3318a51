import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { defineConfig } from '@playwright/test'
import { findChromium } from './scripts/chromium-path.mjs'

/**
 * The preview server's port: `E2E_PORT` when set (several builds side by side:
 * E2E_DIST=/tmp/dist-x E2E_PORT=4180), else a port that is free right now. Playwright loads this
 * file again in each worker process; the port chosen first is put into the environment, which the
 * workers inherit, so every process agrees on it.
 */
function previewPort(): number {
  const chosen = process.env.E2E_PORT
  if (chosen !== undefined && chosen !== '') return Number(chosen)
  const script = fileURLToPath(new URL('./scripts/free-port.mjs', import.meta.url))
  const port = Number(execFileSync(process.execPath, [script], { encoding: 'utf8' }).trim())
  process.env.E2E_PORT = String(port)
  return port
}

const PORT = previewPort()
const DIST = process.env.E2E_DIST ?? 'dist'

/**
 * E2E runs against the BUILT app (`vite preview` serves dist/), so tests see what users get:
 * the production CSP, the split token chunk, the bundled worker. `npm run test:e2e` builds first.
 * The browser is a system Chromium (see scripts/ensure-chromium.mjs), never a download.
 */
export default defineConfig({
  testDir: 'e2e',
  workers: 1,
  fullyParallel: false,
  retries: 0,
  reporter: 'list',
  outputDir: process.env.E2E_OUTPUT ?? 'test-results',
  timeout: 60_000,
  expect: { timeout: 15_000 },
  use: {
    baseURL: `http://localhost:${PORT}`,
    browserName: 'chromium',
    headless: true,
    launchOptions: {
      executablePath: findChromium()?.path ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
    trace: 'retain-on-failure',
  },
  webServer: {
    command: `npx vite preview --port ${PORT} --strictPort --outDir ${DIST}`,
    url: `http://localhost:${PORT}`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
})
