import { setFlagsFromString } from 'node:v8'

/**
 * How far V8 may grow the old generation past what survived the last full collection, in
 * percent. V8's own factor goes up to 4× when the heap limit is large (4.3 GB on a 24 GB machine),
 * so a batch run that holds a 600 MB conversation while the replay churns through short-lived
 * views let the heap reach ~1.7 GB of mostly garbage: 2 GB peak RSS on the 200 MB transcript
 * (issue 14). 40 % keeps the heap near what is live; there is no hard limit, so a larger input
 * still runs (with more collections), and the run's CPU time was unchanged within noise.
 */
export const HEAP_GROWING_PERCENT = 40

/**
 * Bound the heap's growth for the rest of this process. Only the CLI calls it (a batch process
 * that ends with its command); the flag is read at every full collection, so setting it after
 * start-up takes effect. It changes when garbage is collected, never what is computed.
 */
export function boundHeapGrowth(percent: number = HEAP_GROWING_PERCENT): void {
  setFlagsFromString(`--heap-growing-percent=${percent}`)
}
