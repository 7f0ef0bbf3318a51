/**
 * Before/after alignment for the detail drawer's Diff and Tokens tabs, and a small line diff for
 * replaced text. Pure: no React, tested in node.
 */
import type { WireMessage, WirePart } from '../../../store/index.ts'

export type PartDiff =
  | { readonly kind: 'unchanged'; readonly before: WirePart; readonly after: WirePart }
  | { readonly kind: 'replaced'; readonly before: WirePart; readonly after: WirePart }
  | { readonly kind: 'removed'; readonly before: WirePart }
  /** A projected part with no original to pair with (should not happen; shown, not hidden). */
  | { readonly kind: 'added'; readonly after: WirePart }

export interface MessageDiff {
  readonly id: string
  readonly index: number
  readonly role: WireMessage['role']
  /** `removed`: the message is not in the projection at all (group excluded, or every part gone). */
  readonly status: 'unchanged' | 'changed' | 'removed'
  readonly before: WireMessage
  readonly after: WireMessage | null
  readonly parts: readonly PartDiff[]
}

const samePart = (a: WirePart, b: WirePart): boolean =>
  a.kind === b.kind && a.label === b.label && a.text === b.text && a.chars === b.chars

/**
 * Pair projected parts with the originals. Projection keeps the order of parts and only replaces
 * or drops them, so a greedy walk works: an unreplaced part is the next original equal to it; a
 * replaced one stands in for the next original of the same kind; originals skipped on the way
 * were removed.
 */
export function alignParts(
  before: readonly WirePart[],
  after: readonly WirePart[],
): readonly PartDiff[] {
  const out: PartDiff[] = []
  let i = 0
  for (const a of after) {
    const match = (b: WirePart) => (a.replaced ? b.kind === a.kind : samePart(b, a))
    let j = i
    while (j < before.length && !match(before[j] as WirePart)) j++
    if (j === before.length) {
      out.push({ kind: 'added', after: a })
      continue
    }
    for (; i < j; i++) out.push({ kind: 'removed', before: before[i] as WirePart })
    const b = before[j] as WirePart
    out.push(
      a.replaced
        ? { kind: 'replaced', before: b, after: a }
        : { kind: 'unchanged', before: b, after: a },
    )
    i = j + 1
  }
  for (; i < before.length; i++) out.push({ kind: 'removed', before: before[i] as WirePart })
  return out
}

/** Every original message with its projected counterpart (matched by id). Null before any run. */
export function diffMessages(
  before: readonly WireMessage[],
  after: readonly WireMessage[] | null,
): readonly MessageDiff[] | null {
  if (after === null) return null
  const byId = new Map(after.map((m) => [m.id, m]))
  return before.map((b) => {
    const a = byId.get(b.id) ?? null
    if (!a) {
      const parts = b.parts.map((p): PartDiff => ({ kind: 'removed', before: p }))
      return {
        id: b.id,
        index: b.index,
        role: b.role,
        status: 'removed',
        before: b,
        after: null,
        parts,
      }
    }
    const parts = alignParts(b.parts, a.parts)
    const changed = parts.some((p) => p.kind !== 'unchanged')
    return {
      id: b.id,
      index: b.index,
      role: b.role,
      status: changed ? 'changed' : 'unchanged',
      before: b,
      after: a,
      parts,
    }
  })
}

export interface DiffLine {
  readonly op: 'same' | 'del' | 'add'
  readonly text: string
}

/** Above this many LCS cells the middle is shown as "all removed, all added" (still correct). */
const MAX_CELLS = 1_000_000

/**
 * A line diff of `a` → `b`: common head and tail first, then a longest-common-subsequence over
 * what is left (small after the trim for stubs and trims, which keep a head or a tail).
 */
export function lineDiff(a: string, b: string): readonly DiffLine[] {
  const x = a.split('\n')
  const y = b.split('\n')
  let head = 0
  while (head < x.length && head < y.length && x[head] === y[head]) head++
  let tail = 0
  while (
    tail < x.length - head &&
    tail < y.length - head &&
    x[x.length - 1 - tail] === y[y.length - 1 - tail]
  )
    tail++
  const xs = x.slice(head, x.length - tail)
  const ys = y.slice(head, y.length - tail)
  const same = (lines: readonly string[]) => lines.map((text): DiffLine => ({ op: 'same', text }))
  return [...same(x.slice(0, head)), ...middle(xs, ys), ...same(x.slice(x.length - tail))]
}

function middle(xs: readonly string[], ys: readonly string[]): DiffLine[] {
  const n = xs.length
  const m = ys.length
  const del = (text: string): DiffLine => ({ op: 'del', text })
  const add = (text: string): DiffLine => ({ op: 'add', text })
  if (n === 0 || m === 0 || n * m > MAX_CELLS) return [...xs.map(del), ...ys.map(add)]
  // lcs[i][j] = LCS length of xs[i..] and ys[j..], in one flat array.
  const w = m + 1
  const lcs = new Uint32Array((n + 1) * w)
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i * w + j] =
        xs[i] === ys[j]
          ? (lcs[(i + 1) * w + j + 1] as number) + 1
          : Math.max(lcs[(i + 1) * w + j] as number, lcs[i * w + j + 1] as number)
    }
  }
  const out: DiffLine[] = []
  let i = 0
  let j = 0
  while (i < n && j < m) {
    if (xs[i] === ys[j]) {
      out.push({ op: 'same', text: xs[i] as string })
      i++
      j++
    } else if ((lcs[(i + 1) * w + j] as number) >= (lcs[i * w + j + 1] as number)) {
      out.push(del(xs[i++] as string))
    } else {
      out.push(add(ys[j++] as string))
    }
  }
  while (i < n) out.push(del(xs[i++] as string))
  while (j < m) out.push(add(ys[j++] as string))
  return out
}

/** The first "show more" limit, and how it grows: ×10 until it would be huge, then everything. */
export const FIRST_LIMIT = 4000
const LAST_FINITE_LIMIT = 400_000

export function nextLimit(limit: number): number {
  return limit >= LAST_FINITE_LIMIT ? Number.POSITIVE_INFINITY : limit * 10
}
