/** How risk figures read in sentences (pure, shared by the drawer, the facts, compare and sweep). */

/** `a`, `a and b`, `a, b and c`. */
export function listWords(items: readonly string[]): string[] {
  if (items.length <= 1) return [...items]
  return items.flatMap((item, i) =>
    i === 0 ? [item] : i === items.length - 1 ? [' and ', item] : [', ', item],
  )
}

/** `the next call`, `3 calls later`. */
export function callsLaterWords(calls: number): string {
  return calls <= 1 ? 'in the next call' : `${calls} calls later`
}

/** `1 removed group used later`, `no removed content used later`. */
export function usedLaterWords(groups: number): string {
  if (groups === 0) return 'nothing removed was used later'
  return `${groups} removed ${groups === 1 ? 'group' : 'groups'} used later`
}
