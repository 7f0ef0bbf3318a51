#!/usr/bin/env node
// Prints a TCP port that is free on this machine right now (the OS picks it: listen on port 0 of
// every interface, IPv4 and IPv6, as `vite preview` on localhost may use either).
// playwright.config.ts runs this synchronously once, so `npm test` does not depend on any fixed
// port (4173 used to be hard-wired: a second checkout or another preview broke the suite).
import { createServer } from 'node:net'

const server = createServer()
server.unref()
server.on('error', (error) => {
  console.error(`free-port: ${error.message}`)
  process.exit(1)
})
server.listen(0, () => {
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  server.close(() => {
    process.stdout.write(`${port}\n`)
  })
})
