/**
 * The V8 flags the CLI sets at run time, in one place: each changes when V8 collects or compiles,
 * never what is computed.
 */
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

/**
 * V8's tier-up budget for the pool's isolates (V8 11's default is 132 KB of bytecode run). Each
 * worker isolate JIT-compiles the engine on its own, on V8's background threads: with the default,
 * that background CPU was about as large as the workers' own (60-file fleet: 7 s beside 7.5 s) and
 * on two cores it competes with the second worker, where `--jobs 1` gets it for free on the idle
 * core. Optimising later compiles far less: process CPU 14.5 → 12.2 s (medians of 2, load 15),
 * workers' own CPU 7.5 → 9.0 s. 4 MB was worse (15.8 s). A JIT flag never changes results; it is
 * set only when workers start, so `--jobs 1` runs as before.
 */
export const WORKER_INTERRUPT_BUDGET = 1_000_000

/** Optimise later in the pool's worker isolates: called only when `evaluate` starts workers. */
export function optimiseWorkersLater(): void {
  setFlagsFromString(`--interrupt-budget=${WORKER_INTERRUPT_BUDGET}`)
}
