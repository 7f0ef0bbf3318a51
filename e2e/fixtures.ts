import { test as base, expect } from '@playwright/test'
import { AppPage } from './pages/AppPage.ts'

interface Guards {
  /** Every URL the page requested during the test. */
  readonly requests: string[]
  /** Messages of any alert/confirm/prompt: transcript content must never get to open one. */
  readonly dialogs: string[]
  /** Uncaught page errors and console errors (CSP violations are reported there). */
  readonly errors: string[]
}

/** Same origin as the app, or a local data:/blob: URL: anything else would be a leak. */
export function isLocal(url: string, origin: string): boolean {
  if (url.startsWith('data:') || url.startsWith('blob:')) return true
  return new URL(url).origin === origin
}

/**
 * `app` is the page object; `guards` records requests, dialogs and errors for every test and
 * fails it afterwards if anything left the origin, a dialog opened or an error was logged.
 */
export const test = base.extend<{ app: AppPage; guards: Guards }>({
  guards: async ({ page, baseURL }, use) => {
    const guards: Guards = { requests: [], dialogs: [], errors: [] }
    page.on('request', (request) => guards.requests.push(request.url()))
    page.on('dialog', (dialog) => {
      guards.dialogs.push(`${dialog.type()}: ${dialog.message()}`)
      void dialog.dismiss()
    })
    page.on('pageerror', (error) => guards.errors.push(`pageerror: ${error.message}`))
    page.on('console', (message) => {
      if (message.type() === 'error') guards.errors.push(`console: ${message.text()}`)
    })
    await use(guards)
    const origin = new URL(baseURL ?? 'http://localhost').origin
    expect(guards.dialogs, 'no dialog may open').toEqual([])
    expect(
      guards.requests.filter((url) => !isLocal(url, origin)),
      'no request may leave the origin',
    ).toEqual([])
    expect(guards.errors, 'no page or console errors').toEqual([])
  },
  app: async ({ page, guards }, use) => {
    void guards // requested so the guards are installed before the page is used
    await use(new AppPage(page))
  },
})

export { expect }
