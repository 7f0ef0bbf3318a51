/**
 * `npm start` (the README's first command) → the bundled sample's budget painted, as a user on a
 * fresh clone after `npm install` would see it: the build (`dist/`) and Vite's dependency cache
 * are removed, then the install's own step runs untimed (`prepare`: `scripts/start.mjs
 * --build-only`, the build `npm install` makes), and the clock runs from the spawn of `npm start`
 * to the budget headline showing the sample's figures in Chromium (launched before the clock
 * starts, as the user's browser already runs).
 */
import { spawn, spawnSync } from 'node:child_process'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser } from '@playwright/test'
import { TID } from '../src/ui/testids.ts'
import { round } from './timing.ts'

export interface StartResult {
  /** What `npm install` spends building the app (its `prepare` step), untimed in the figure. */
  readonly installBuildMs: number
  /** Spawn → the dev server printed its URL. */
  readonly serverReadyMs: number
  /** Spawn → the sample's budget headline painted. */
  readonly firstViewMs: number
}

const ROOT = join(import.meta.dirname, '..')

/** The headline shows a budget (data-before set) and is not marked stale. */
export const BUDGET_PAINTED = `(() => { const el = document.querySelector('[data-testid="${TID.budgetHeadline}"]'); return !!el && Number(el.getAttribute('data-before')) > 0 && !document.querySelector('.budget.stale') })()`

export async function benchStart(browser: Browser): Promise<StartResult> {
  rmSync(join(ROOT, 'node_modules', '.vite'), { recursive: true, force: true })
  rmSync(join(ROOT, 'dist'), { recursive: true, force: true })
  const b0 = performance.now()
  const prepare = spawnSync('npm', ['run', 'prepare'], { cwd: ROOT, stdio: 'ignore' })
  if (prepare.status !== 0) throw new Error('npm run prepare (the install build) failed')
  const installBuildMs = round(performance.now() - b0, 0)
  const t0 = performance.now()
  // `npm start` exactly as the README says; Vite takes the next free port when 5173 is taken.
  const child = spawn('npm', ['start'], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' },
  })
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = ''
      const timer = setTimeout(() => reject(new Error(`npm start printed no URL: ${out}`)), 120_000)
      const onData = (chunk: Buffer) => {
        out += chunk.toString()
        const m = /Local:\s+(http:\/\/\S+)/.exec(out)
        if (m?.[1]) {
          clearTimeout(timer)
          resolve(m[1])
        }
      }
      child.stdout?.on('data', onData)
      child.stderr?.on('data', onData)
      child.on('exit', (code) => reject(new Error(`npm start exited (${code}): ${out}`)))
    })
    const serverReadyMs = round(performance.now() - t0, 0)
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } })
    // Keep polling across navigations (a dev server may reload the page once) until the budget
    // is painted.
    await page.goto(url, { waitUntil: 'commit', timeout: 120_000 })
    for (;;) {
      if (performance.now() - t0 > 180_000) throw new Error('npm start: no budget after 180 s')
      try {
        if (await page.evaluate<boolean>(BUDGET_PAINTED)) break
      } catch {
        // navigating (a reload): ask again
      }
      await new Promise((r) => setTimeout(r, 25))
    }
    const firstViewMs = round(performance.now() - t0, 0)
    await page.close()
    return { installBuildMs, serverReadyMs, firstViewMs }
  } finally {
    if (child.pid) {
      try {
        process.kill(-child.pid)
      } catch {
        child.kill()
      }
    }
  }
}
