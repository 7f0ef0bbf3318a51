import type { StrategyContext } from '../../compaction/context.ts'
import type { Group } from '../../groups.ts'
import type { ResultContent, TextPart, ToolResultPart } from '../../model.ts'
import { priceSpliceTail } from '../../tokens/pricing-splice.ts'
import { rememberTextPrice } from '../../tokens/pricing.ts'

/** MAF's cap on the synthesized digest (PR #7396) and the marker that ends a capped digest. */
export const DIGEST_MAX_CHARS = 4096
export const TRUNCATION_MARKER = '... [truncated]'

export interface Digest {
  /** The summary text, capped when `cap` is given. */
  readonly text: string
  /** Length of the uncapped text. */
  readonly fullLength: number
  readonly results: number
  readonly truncated: boolean
}

function contentText(c: ResultContent): string {
  switch (c.kind) {
    case 'text':
      return c.text
    case 'image':
      return `[image${c.mediaType ? ` ${c.mediaType}` : ''}]`
    case 'file':
      return `[file${c.filename ? ` ${c.filename}` : ''}]`
    case 'opaque':
      return `[${c.opaque.label}]`
  }
}

/** A result's value as MAF's digest writes it: text contents joined by newlines. */
export function resultText(part: ToolResultPart): string {
  return part.content.map(contentText).join('\n')
}

/**
 * The digest MAF's ToolResultCompactionStrategy inserts for a collapsed tool_call group:
 * `[Tool results: <tool>: <result>; <tool>: <result>]` in result order, or
 * `[Tool results: no results]`. Only results still present are used (a result an earlier step
 * removed is not resurrected; a stubbed one contributes its stub). With `cap`, text longer than
 * the cap is cut to `cap − marker` characters plus `... [truncated]` (exactly `cap` characters).
 */
export function digestOf(ctx: StrategyContext, g: Group, cap: number | null): Digest {
  const { full, results } = fullDigest(ctx, g)
  return capped(full, results, cap)
}

/** The uncapped digest text of a group as it is now, and how many results it holds. */
function fullDigest(ctx: StrategyContext, g: Group): { full: string; results: number } {
  const { pairing } = ctx
  const entries: string[] = []
  for (const r of g.results) {
    const info = pairing.results[r]
    if (!info || !ctx.visible(info.message)) continue
    const part = ctx.view.part(info)
    if (!part || part.kind !== 'tool_result') continue
    const name = pairing.calls[info.call]?.name ?? part.name ?? 'unknown'
    entries.push(`${name}: ${resultText(part)}`)
  }
  const full = `[Tool results: ${entries.length > 0 ? entries.join('; ') : 'no results'}]`
  return { full, results: entries.length }
}

/** The digest of `full` under `cap`. */
function capped(full: string, results: number, cap: number | null): Digest {
  if (cap === null || full.length <= cap) {
    return { text: full, fullLength: full.length, results, truncated: false }
  }
  let cut = Math.max(0, cap - TRUNCATION_MARKER.length)
  // Never split a surrogate pair.
  const code = full.charCodeAt(cut - 1)
  if (cut > 0 && code >= 0xd800 && code <= 0xdbff) cut--
  return {
    text: full.slice(0, cut) + TRUNCATION_MARKER,
    fullLength: full.length,
    results,
    truncated: true,
  }
}

/** A digest with the text part that carries it. */
export interface DigestPart {
  readonly digest: Digest
  readonly part: TextPart
}

/**
 * Per group, the result parts its digest was last made from, the uncapped text and the digest
 * parts made from it: a re-plan or a later round that finds the same parts gets the same text part
 * back, so the view prices it by identity instead of counting up to 4,096 characters again. The
 * uncapped text does not depend on the cap, and a digest under the cap is the same part whatever
 * the cap: an edit of maxSummaryChars re-cuts (and re-prices) only the digests it cuts.
 */
interface GroupDigests {
  readonly from: readonly unknown[]
  readonly full: string
  readonly results: number
  /** The digest under any cap it fits, made on first use. */
  whole: DigestPart | null
  /** Cut digests per cap value (a few: a cap is edited by typing). */
  readonly cut: Map<number, DigestPart>
  /** The start of `full` the cut digests are priced from (see headOf), made on first use. */
  head: string | null
}

const lastDigests = new WeakMap<Group, GroupDigests>()

/** How many cut digests per group are kept (different cap values). */
const MAX_CAPS = 4

/** `digestOf` and its text part, memoised per group on the exact result parts it reads. */
export function digestPartOf(ctx: StrategyContext, g: Group, cap: number | null): DigestPart {
  let entry = lastDigests.get(g)
  if (!entry || !readsSame(ctx, g, entry.from)) {
    const from = new Array<unknown>(g.results.length)
    for (let i = 0; i < g.results.length; i++) from[i] = readFrom(ctx, g.results[i] as number)
    const { full, results } = fullDigest(ctx, g)
    entry = { from, full, results, whole: null, cut: new Map(), head: null }
    lastDigests.set(g, entry)
  }
  if (cap === null || entry.full.length <= cap) {
    return (entry.whole ??= made(capped(entry.full, entry.results, null)))
  }
  let part = entry.cut.get(cap)
  if (!part) {
    if (entry.cut.size >= MAX_CAPS) entry.cut.clear()
    part = made(capped(entry.full, entry.results, cap))
    entry.cut.set(cap, part)
    // A new cap makes a new text, the full digest's start plus the marker: priced from what is
    // known of the full digest and the marker alone (the new text is never read whole: no copy,
    // hash or scan of 4,096 characters per digest per edit), and the price kept with the part
    // for the view to read.
    const counter = ctx.view.prepared.counter
    const cut = part.digest.text.length - TRUNCATION_MARKER.length
    rememberTextPrice(
      part.part,
      priceSpliceTail(headOf(entry, cut), cut, TRUNCATION_MARKER, counter),
      counter,
    )
  }
  return part
}

/** Characters of a full digest past the cut kept in its head (cap edits move the cut a little). */
const HEAD_SLACK = 1024

/**
 * The start of a full digest that cut digests are priced from, at least `cut` characters: the
 * token tables key their per-base checkpoints and scans by the base and are bounded by the
 * characters of the bases they hold, and the full digests of a 10,000-message transcript's
 * capped groups are ~12M characters (up to 180k each) of which a cut reads ~4k. With the whole
 * digest as the base, the tables filled and were cleared on every edit of the cap, so every cut
 * re-split and re-scanned its base from the start. A slice shares the full text's characters.
 */
function headOf(entry: GroupDigests, cut: number): string {
  if (entry.head !== null && entry.head.length >= cut) return entry.head
  const head =
    entry.full.length <= cut + 2 * HEAD_SLACK ? entry.full : entry.full.slice(0, cut + HEAD_SLACK)
  entry.head = head
  return head
}

function made(digest: Digest): DigestPart {
  return { digest, part: { kind: 'text', text: digest.text } }
}

/** Are the group's results read now the same objects as `from`? (Compared in place.) */
function readsSame(ctx: StrategyContext, g: Group, from: readonly unknown[]): boolean {
  const results = g.results
  for (let i = 0; i < results.length; i++) {
    if (readFrom(ctx, results[i] as number) !== from[i]) return false
  }
  return true
}

/** What digestOf reads of result `r`: its current part (null when hidden or removed). */
function readFrom(ctx: StrategyContext, r: number): unknown {
  const info = ctx.pairing.results[r]
  return info && ctx.visible(info.message) ? ctx.view.part(info) : null
}
