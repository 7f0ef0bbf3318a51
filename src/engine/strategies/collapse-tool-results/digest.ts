import type { StrategyContext } from '../../compaction/context.ts'
import type { Group } from '../../groups.ts'
import type { ResultContent, TextPart, ToolResultPart } from '../../model.ts'

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
  if (cap === null || full.length <= cap) {
    return { text: full, fullLength: full.length, results: entries.length, truncated: false }
  }
  let cut = Math.max(0, cap - TRUNCATION_MARKER.length)
  // Never split a surrogate pair.
  const code = full.charCodeAt(cut - 1)
  if (cut > 0 && code >= 0xd800 && code <= 0xdbff) cut--
  return {
    text: full.slice(0, cut) + TRUNCATION_MARKER,
    fullLength: full.length,
    results: entries.length,
    truncated: true,
  }
}

/** A digest with the text part that carries it. */
export interface DigestPart {
  readonly digest: Digest
  readonly part: TextPart
}

/**
 * The last digest made for each group, with the result parts it was made from: a re-plan or a
 * later round that finds the same parts gets the same text part back, so the view prices it by
 * identity instead of counting up to 4,096 characters again.
 */
const lastDigests = new WeakMap<
  Group,
  { readonly cap: number | null; readonly from: readonly unknown[]; readonly made: DigestPart }
>()

/** `digestOf` and its text part, memoised per group on the exact result parts it reads. */
export function digestPartOf(ctx: StrategyContext, g: Group, cap: number | null): DigestPart {
  const hit = lastDigests.get(g)
  // Compared in place: a re-plan asks for thousands of groups whose parts did not change.
  if (hit && hit.cap === cap && g.results.every((r, i) => readFrom(ctx, r) === hit.from[i]))
    return hit.made
  const from = g.results.map((r) => readFrom(ctx, r))
  const digest = digestOf(ctx, g, cap)
  const made: DigestPart = { digest, part: { kind: 'text', text: digest.text } }
  lastDigests.set(g, { cap, from, made })
  return made
}

/** What digestOf reads of result `r`: its current part (null when hidden or removed). */
function readFrom(ctx: StrategyContext, r: number): unknown {
  const info = ctx.pairing.results[r]
  return info && ctx.visible(info.message) ? ctx.view.part(info) : null
}
