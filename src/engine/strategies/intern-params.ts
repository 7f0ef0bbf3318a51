/**
 * One params object per params value, for the per-part memos keyed on it.
 *
 * Every edit in the app hands the engine a new config (cloned across the worker boundary and
 * validated again), so a strategy's parsed params are a new object on every re-plan even when
 * that step's params did not change. Strategies memoise per-part work (sentences, trims, keys)
 * against their params object; with a fresh object each time, all of it was redone — and the
 * re-plan of a 10,000-message transcript re-worded and re-keyed every part. A strategy that
 * starts with `p = internParams(id, p)` gets the first params object that had the same value, so
 * those memos hold across re-plans. Only values are compared (the JSON text: parsed params are
 * plain JSON data in their schema's key order); nothing a run decides is kept here.
 */

/** Strategy id → params JSON text → the first params object seen with it. */
const interned = new Map<string, Map<string, object>>()

/** How many distinct values are kept per strategy (a long editing session must not grow it). */
const MAX_VALUES = 64

/**
 * A params object already interned → its interned object: the pipeline hands a step the same
 * parsed object at every call of a replay (pipeline.ts memoises the parse per config object),
 * and its JSON text was written again at each of thousands of calls.
 */
const known = new WeakMap<object, object>()

export function internParams<P extends object>(strategy: string, p: P): P {
  const seen = known.get(p)
  if (seen) return seen as P
  const interned = internByValue(strategy, p)
  known.set(p, interned)
  return interned
}

function internByValue<P extends object>(strategy: string, p: P): P {
  let byText = interned.get(strategy)
  if (!byText) {
    byText = new Map()
    interned.set(strategy, byText)
  }
  const text = JSON.stringify(p)
  const hit = byText.get(text)
  if (hit) return hit as P
  if (byText.size >= MAX_VALUES) byText.clear()
  byText.set(text, p)
  return p
}
