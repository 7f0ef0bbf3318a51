#!/usr/bin/env node
// Makes sure a Chromium exists before the e2e tests run. Order: $CHROME_PATH, the system
// browsers, Playwright's own cache. If none is found and we are root on Debian/Ubuntu, install
// the distribution's `chromium` package with apt. It never runs `playwright install`.
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { findChromium } from './chromium-path.mjs'

function report(found) {
  console.log(`e2e browser: ${found.path} (${found.source})`)
}

let found = findChromium()
if (found) {
  report(found)
  process.exit(0)
}

if (process.env.CHROME_PATH) {
  console.error(`CHROME_PATH is set to ${process.env.CHROME_PATH}, but no file exists there.`)
  process.exit(1)
}

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0
const isDebian = existsSync('/etc/debian_version')
if (isRoot && isDebian) {
  console.log('No Chromium found: installing the distribution package (apt-get install chromium)…')
  const result = spawnSync('sh', ['-c', 'apt-get update && apt-get install -y chromium'], {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  })
  found = findChromium()
  if (result.status === 0 && found) {
    report(found)
    process.exit(0)
  }
  console.error('apt-get did not produce a usable Chromium.')
}

console.error(
  [
    'No Chromium found for the e2e tests. Install one, then run again:',
    '  Debian/Ubuntu: sudo apt-get install chromium   (or chromium-browser)',
    '  Fedora:        sudo dnf install chromium',
    '  macOS:         brew install --cask chromium',
    'or point CHROME_PATH at any Chromium/Chrome executable.',
  ].join('\n'),
)
process.exit(1)
