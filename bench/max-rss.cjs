/* global process */
// Preloaded into the CLI by bench/cli-scale.ts (NODE_OPTIONS=--require): reports the process's
// peak resident set size on exit, so the bench measures the CLI's own memory, not its own.
process.on('exit', () => {
  process.stderr.write(`\nBENCH_MAX_RSS_KB=${process.resourceUsage().maxRSS}\n`)
})
