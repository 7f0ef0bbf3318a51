import { execFileSync } from 'node:child_process'
import { createServer, type Server } from 'node:net'
import { resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

/**
 * Issue 10 item 8: `npm test` failed when port 4173 was taken (the Playwright web server used it
 * with --strictPort and no reuse). The config now takes a free port unless E2E_PORT says otherwise.
 */
const listen = (port: number) =>
  new Promise<Server | null>((done) => {
    const server = createServer()
    server.once('error', () => done(null)) // already taken by someone else: fine, it is taken
    server.listen(port, () => done(server))
  })

describe('the e2e preview port', () => {
  const servers: Server[] = []
  afterAll(() => servers.forEach((s) => s.close()))

  it('free-port.mjs prints a port nobody listens on', async () => {
    const script = resolve(__dirname, 'free-port.mjs')
    const port = Number(execFileSync(process.execPath, [script], { encoding: 'utf8' }).trim())
    expect(port).toBeGreaterThan(0)
    const server = await listen(port)
    expect(server).not.toBeNull()
    if (server) servers.push(server)
  })

  it('playwright.config.ts does not use 4173 when it is taken', async () => {
    const blocker = await listen(4173)
    if (blocker) servers.push(blocker)
    const saved = process.env.E2E_PORT
    delete process.env.E2E_PORT
    try {
      const config = (await import('../playwright.config.ts')).default
      const port = Number(new URL(String(config.use?.baseURL)).port)
      expect(port).not.toBe(4173)
      expect(process.env.E2E_PORT).toBe(String(port)) // inherited by Playwright's workers
      const web = config.webServer
      const command = Array.isArray(web) ? web[0]?.command : web?.command
      expect(command).toContain(`--port ${port} --strictPort`)
    } finally {
      if (saved === undefined) delete process.env.E2E_PORT
      else process.env.E2E_PORT = saved
    }
  })
})
