// The scaling lives with the config code; the bench re-exports it for its own modules.
export { scale, scaleTo, usableOf } from '../src/config/scale.ts'
