import { defineConfig } from '@playwright/test'
import { findChromium } from './scripts/chromium-path.mjs'

// Overridable so several builds can be checked side by side (E2E_DIST=/tmp/dist-x E2E_PORT=4180).
const PORT = Number(process.env.E2E_PORT ?? 4173)
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
