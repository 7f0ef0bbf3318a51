// Where to find a Chromium for Playwright. Shared by scripts/ensure-chromium.mjs and
// playwright.config.ts so both agree on the browser. We never download one (`playwright install`
// needs network access we do not assume): we use what the system, or an earlier Playwright
// install, already has.
import { existsSync, readdirSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'

/** System locations, in order of preference (after the CHROME_PATH override). */
export const SYSTEM_CHROMIUM_PATHS = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
]

/** Browsers a previous `playwright install` left in its cache, newest first. */
function playwrightCachePaths() {
  const roots = [
    process.env.PLAYWRIGHT_BROWSERS_PATH,
    join(homedir(), '.cache', 'ms-playwright'),
  ].filter((root) => root && root !== '0' && existsSync(root))
  const found = []
  for (const root of roots) {
    let dirs = []
    try {
      dirs = readdirSync(root).filter((name) => /^chromium(_headless_shell)?-\d+$/.test(name))
    } catch {
      continue
    }
    dirs.sort((a, b) => Number(b.split('-').pop()) - Number(a.split('-').pop()))
    for (const dir of dirs) {
      for (const rel of [
        'chrome-linux64/chrome',
        'chrome-linux/chrome',
        'chrome-linux/headless_shell',
        'chrome-headless-shell-linux64/chrome-headless-shell',
      ]) {
        found.push(join(root, dir, rel))
      }
    }
  }
  return found
}

/**
 * The Chromium executable to use, or null when none is installed.
 * @returns {{path: string, source: string} | null}
 */
export function findChromium() {
  const fromEnv = process.env.CHROME_PATH
  if (fromEnv) return existsSync(fromEnv) ? { path: fromEnv, source: 'CHROME_PATH' } : null
  for (const path of SYSTEM_CHROMIUM_PATHS) {
    if (existsSync(path)) return { path, source: 'system' }
  }
  for (const path of playwrightCachePaths()) {
    if (existsSync(path)) return { path, source: 'playwright cache' }
  }
  return null
}
