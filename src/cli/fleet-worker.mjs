// A worker_threads entry for `evaluate --jobs N`: like bin/compaction-lab.mjs, tsx's loader
// compiles the TypeScript body on the fly, so the CLI needs no build step.
import { register } from 'tsx/esm/api'

register()
await import('./fleet-worker-body.ts')
