import type { ApproximateCount, TokenCategory } from '../inspect-types.ts'
import type { Conversation, Message, Part, ResultContent, Role } from '../model.ts'
import { imageDimensions, imageTokens, type ModelFamily } from './images.ts'
import type { TextCounter } from './types.ts'

export type { ModelFamily } from './images.ts'

/** Per-message and per-call framing tokens (chat templates wrap every message and call). */
export interface Framing {
  readonly perMessage: number
  readonly perToolCall: number
  /** Once per request (reply priming). */
  readonly perConversation: number
}

/** OpenAI's published chat accounting: 3 per message, 3 to prime the reply. */
export const DEFAULT_FRAMING: Framing = { perMessage: 3, perToolCall: 3, perConversation: 3 }

/**
 * Multiplier applied on top of tiktoken counts for a model family, always shown with its label.
 * Claude and Gemini use vocabularies we do not ship; these are starting points the user can tune
 * (or that reported usage in the transcript can replace).
 */
export const DEFAULT_CALIBRATION: Readonly<Record<ModelFamily, number>> = {
  openai: 1,
  claude: 1.2,
  gemini: 1.1,
  other: 1,
}

export interface PricingOptions {
  readonly family?: ModelFamily
  readonly framing?: Framing
  readonly calibration?: Partial<Record<ModelFamily, number>>
}

export function modelFamily(model: string | undefined): ModelFamily {
  const m = (model ?? '').toLowerCase()
  if (/claude|anthropic|sonnet|opus|haiku/.test(m)) return 'claude'
  if (/gemini|gemma|palm/.test(m)) return 'gemini'
  if (/gpt|^o\d|openai|codex|davinci/.test(m)) return 'openai'
  return 'other'
}

/**
 * Sanitised transcripts replace free text by `[REDACTED_TEXT len=N sha=…]`, keeping the original
 * length. What the model received was the N characters, not the placeholder: priced at
 * chars/4 (a labelled estimate), so a redacted log still reconciles with its reported usage.
 */
export const REDACTION_MARK = '[REDACTED_TEXT len='
const REDACTION = /\[REDACTED_TEXT len=(\d+)[^\]]*\]/g
const REDACTED_CHARS_PER_TOKEN = 4

function priceRedacted(text: string, counter: TextCounter): PricedText {
  let chars = 0
  let rest = ''
  let from = 0
  for (const match of text.matchAll(REDACTION)) {
    chars += Number(match[1])
    rest += text.slice(from, match.index)
    from = match.index + match[0].length
  }
  rest += text.slice(from)
  const approx = Math.ceil(chars / REDACTED_CHARS_PER_TOKEN)
  return {
    tokens: counter.count(rest) + approx,
    approximate: { what: `${chars} redacted chars (chars/4)`, tokens: approx },
  }
}

/** A base64 run at least this long inside text is priced by rule rather than BPE. */
export const BASE64_RUN = 4096
/** Measured: o200k spends ≈ 1.46 characters per token on base64 (perf anchors §1c). */
const BASE64_CHARS_PER_TOKEN = 1.46
/** Encrypted reasoning, signatures: no vocabulary applies; bytes/4 is a labelled estimate. */
const OPAQUE_BYTES_PER_TOKEN = 4

export interface PricedText {
  readonly tokens: number
  readonly approximate?: ApproximateCount
}

/**
 * Count text, pricing long embedded base64 runs (data URIs, attachments printed by tools) at
 * chars/1.46 instead of pushing megabytes of them through BPE. Linear scan, no regex backtracking.
 */
export function priceText(text: string, counter: TextCounter): PricedText {
  if (text.includes(REDACTION_MARK)) return priceRedacted(text, counter)
  if (text.length < BASE64_RUN) return { tokens: counter.count(text) }
  // Long texts are re-priced on every re-plan (stubs and trims of the same outputs): cache the
  // whole result per counter, so the base64 scan runs once per text, not once per pass.
  const cache = longTextCache(counter)
  return cache.get(text) ?? remember(cache, text, priceLongText(text, counter))
}

const longTexts = new WeakMap<TextCounter, Map<string, PricedText>>()

/** The long-text prices kept for `counter` (at most 20,000 texts, then they start over). */
export function longTextCache(counter: TextCounter): Map<string, PricedText> {
  let cache = longTexts.get(counter)
  if (!cache) {
    cache = new Map()
    longTexts.set(counter, cache)
  }
  return cache
}

export function remember(
  cache: Map<string, PricedText>,
  text: string,
  priced: PricedText,
): PricedText {
  if (cache.size >= 20_000) cache.clear()
  cache.set(text, priced)
  return priced
}

function priceLongText(text: string, counter: TextCounter): PricedText {
  const runs = base64Runs(text)
  if (runs.length === 0) return { tokens: counter.count(text) }
  let tokens = 0
  let approx = 0
  let chars = 0
  let from = 0
  for (const [start, end] of runs) {
    tokens += counter.count(text.slice(from, start))
    const t = Math.ceil((end - start) / BASE64_CHARS_PER_TOKEN)
    approx += t
    chars += end - start
    from = end
  }
  tokens += counter.count(text.slice(from))
  return {
    tokens: tokens + approx,
    approximate: { what: `${chars} chars of base64 (chars/1.46)`, tokens: approx },
  }
}

/**
 * Prices of text parts (or text contents) known from how they were made, per object and
 * counter: a part made from a cut of a counted text and priced by {@link priceSpliceTail} is
 * not counted again when the view prices it (a new part per edit: nothing else knows it).
 */
const textPrices = new WeakMap<
  object,
  { readonly counter: TextCounter; readonly priced: PricedText }
>()

/** Keep the price of a text part or content whose text `priced` is the {@link priceText} of. */
export function rememberTextPrice(
  text: { readonly kind: 'text'; readonly text: string },
  priced: PricedText,
  counter: TextCounter,
): void {
  textPrices.set(text, { counter, priced })
}

/** [start, end) of runs of base64 alphabet ≥ BASE64_RUN chars that mix upper, lower and digits. */
export function base64Runs(text: string): [number, number][] {
  const runs: [number, number][] = []
  let start = -1
  let classes = 0
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : 0
    let cls = 0
    if (c >= 65 && c <= 90) cls = 1
    else if (c >= 97 && c <= 122) cls = 2
    else if (c >= 48 && c <= 57) cls = 4
    else if (c === 43 || c === 47 || c === 61 || c === 45 || c === 95) cls = 8
    if (cls !== 0) {
      if (start === -1) {
        start = i
        classes = 0
      }
      classes |= cls
    } else if (start !== -1) {
      if (i - start >= BASE64_RUN && (classes & 7) === 7) runs.push([start, i])
      start = -1
    }
  }
  return runs
}

/** Tokens of one message, split by category, with every rule-priced amount listed. */
export interface MessageTokens {
  readonly total: number
  readonly byCategory: Partial<Record<TokenCategory, number>>
  readonly approximate: readonly ApproximateCount[]
}

function textCategory(role: Role): TokenCategory {
  switch (role) {
    case 'system':
      return 'system'
    case 'user':
      return 'user'
    case 'assistant':
      return 'assistant'
    case 'tool':
      return 'tool_results'
  }
}

class Tally {
  total = 0
  readonly byCategory: Partial<Record<TokenCategory, number>> = {}
  readonly approximate: ApproximateCount[] = []
  add(category: TokenCategory, tokens: number, approximate?: ApproximateCount): void {
    this.total += tokens
    this.byCategory[category] = (this.byCategory[category] ?? 0) + tokens
    if (approximate) this.approximate.push(approximate)
  }
}

function priceContent(
  c: ResultContent | Part,
  category: TokenCategory,
  t: Tally,
  counter: TextCounter,
  family: ModelFamily,
): void {
  switch (c.kind) {
    case 'text': {
      const known = textPrices.get(c)
      const p = known && known.counter === counter ? known.priced : priceText(c.text, counter)
      t.add(category, p.tokens, p.approximate)
      return
    }
    case 'image': {
      const dims = c.data ? imageDimensions(c.data) : null
      const price = imageTokens(family, dims, c.detail)
      t.add('images', price.tokens, { what: price.rule, tokens: price.tokens })
      return
    }
    case 'file': {
      const tokens = Math.ceil(c.bytes / OPAQUE_BYTES_PER_TOKEN)
      t.add('images', tokens, {
        what: `file ${c.filename ?? c.mediaType ?? ''} (bytes/4)`.trim(),
        tokens,
      })
      return
    }
    case 'opaque': {
      const tokens = Math.ceil(c.opaque.bytes / OPAQUE_BYTES_PER_TOKEN)
      t.add('opaque', tokens, { what: `${c.opaque.label} (bytes/4)`, tokens })
      return
    }
    default:
      return
  }
}

/**
 * Tokens of one part as it would be sent by a message of `role` (tool calls include their
 * per-call framing). The compaction engine prices parts one by one so a stub or trim re-prices
 * only the part it replaced.
 */
export function pricePart(
  part: Part,
  role: Role,
  counter: TextCounter,
  family: ModelFamily,
  framing: Framing = DEFAULT_FRAMING,
): number {
  const t = new Tally()
  pricePartInto(part, role, t, counter, family, framing)
  return t.total
}

function pricePartInto(
  part: Part,
  role: Role,
  t: Tally,
  counter: TextCounter,
  family: ModelFamily,
  framing: Framing,
): void {
  switch (part.kind) {
    case 'text':
      priceContent(part, textCategory(role), t, counter, family)
      return
    case 'reasoning': {
      if (part.text) t.add('reasoning', counter.count(part.text))
      if (part.opaque) {
        const tokens = Math.ceil(part.opaque.bytes / OPAQUE_BYTES_PER_TOKEN)
        t.add('opaque', tokens, { what: `${part.opaque.label} (bytes/4)`, tokens })
      }
      return
    }
    case 'tool_call': {
      const args = priceText(part.argsRaw, counter)
      t.add('tool_calls', counter.count(part.name) + args.tokens, args.approximate)
      t.add('framing', framing.perToolCall)
      return
    }
    case 'tool_result':
      for (const c of part.content) priceContent(c, 'tool_results', t, counter, family)
      return
    case 'image':
    case 'file':
    case 'opaque':
      priceContent(part, textCategory(role), t, counter, family)
      return
  }
}

/** Price one message: text by BPE, tool calls/results, images by formula, opaque by bytes. */
export function priceMessage(
  message: Message,
  counter: TextCounter,
  options: PricingOptions = {},
): MessageTokens {
  const family = options.family ?? modelFamily(message.model)
  const framing = options.framing ?? DEFAULT_FRAMING
  const t = new Tally()
  t.add('framing', framing.perMessage)
  for (const part of message.parts) pricePartInto(part, message.role, t, counter, family, framing)
  return { total: t.total, byCategory: t.byCategory, approximate: t.approximate }
}

/** Tokens of the parts outside `messages`: system prompt blocks and tool definitions. */
export function priceStatic(
  conversation: Pick<Conversation, 'system' | 'tools'>,
  counter: TextCounter,
): { system: number; tools: number } {
  let system = 0
  for (const block of conversation.system) system += priceText(block.text, counter).tokens
  let tools = 0
  for (const tool of conversation.tools) tools += counter.count(tool.raw)
  return { system, tools }
}
