/**
 * Object copies that keep one hidden class per shape. In V8 11 (Node 20, which runs the CLI and
 * its fleet workers) an object literal that *starts* with a spread, `{ ...base, key }`, gets a
 * hidden class ("map") of its own on nearly every evaluation: 1,992 maps for 2,000 copies of one
 * two-key object, where `Object.assign({}, base, { key })` makes one. A spread after a literal
 * key (`{ kind, ...rest }`) is not affected. Every function that later reads such copies meets a
 * map it has not seen, so it is deoptimised ('wrong map') and compiled again — in every isolate,
 * so twice over in `evaluate --jobs 2` — and its property loads go through the megamorphic cache.
 * Hot engine code copies with these helpers instead (same keys, same order, same values).
 */

/** `{ ...base, ...changes }`: `base`'s own enumerable keys in order, then `changes` over them. */
export function withFields<T extends object, C extends object>(base: T, changes: C): T & C {
  return Object.assign({}, base, changes)
}

/** `{ ...base }`: a shallow copy of `base`'s own enumerable keys, in order. */
export function copyOf<T extends object>(base: T): T {
  return Object.assign({}, base)
}
