/**
 * The session's clock, for reported durations only (never for a decision). `performance` exists
 * in browsers, workers and Node but not in the ES lib the pure layers are checked against.
 */
const perf = (globalThis as { readonly performance?: { now(): number } }).performance

export const now: () => number = perf ? () => perf.now() : () => Date.now()
