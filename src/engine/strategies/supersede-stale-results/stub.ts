/**
 * Stub text, sizes and stub recognition.
 *
 * LIP sizes a stale output as the UTF-8 bytes of its text (list content flattened to its text
 * items joined by newlines) and estimates its tokens as `len(text) // 4` (Python code points).
 * Both are computed here without TextEncoder (the engine has the ES2022 lib only).
 */
import type { ResultContent, ToolResultPart } from '../../model.ts'
import { withFields } from '../../objects.ts'

/** LIP's hard-coded stub (and the default `stubTemplate`). */
export const LIP_STUB_TEMPLATE =
  '[COMPACTED] Previous output for {resource} ({bytes} bytes) was removed because a newer result for this resource exists later in the conversation.'

/** Every stub LIP ever wrote starts with this (its idempotence check, v0 stubs). */
export const STUB_MARK = '[COMPACTED]'

export const PLACEHOLDERS = ['resource', 'bytes', 'size', 'tool', 'tokens', 'category'] as const
export type Placeholder = (typeof PLACEHOLDERS)[number]

const PLACEHOLDER_RE = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g

/** Names used by a template that are not placeholders we fill. */
export function unknownPlaceholders(template: string): string[] {
  const out: string[] = []
  for (const m of template.matchAll(PLACEHOLDER_RE)) {
    const name = m[1] as string
    if (!(PLACEHOLDERS as readonly string[]).includes(name) && !out.includes(name)) out.push(name)
  }
  return out
}

/** Literal text of a template (placeholders removed, whitespace ignored). */
export const literalLength = (template: string): number =>
  template.replace(PLACEHOLDER_RE, '').replace(/\s+/g, '').length

export function renderStub(
  template: string,
  values: Readonly<Record<Placeholder, string>>,
): string {
  // The template split once (literal, name, literal, …): a regex replace with a callback per stub
  // was a visible share of a re-plan that stubs thousands of results.
  let pieces = splitTemplates.get(template)
  if (!pieces) {
    pieces = template.split(PLACEHOLDER_RE)
    if (splitTemplates.size >= 64) splitTemplates.clear()
    splitTemplates.set(template, pieces)
  }
  let out = pieces[0] as string
  for (let i = 1; i < pieces.length; i += 2) {
    const name = pieces[i] as string
    out += (PLACEHOLDERS as readonly string[]).includes(name)
      ? values[name as Placeholder]
      : `{${name}}`
    out += pieces[i + 1] as string
  }
  return out
}
const splitTemplates = new Map<string, readonly string[]>()

/**
 * The stub part that replaces `part` with `text`: the same object as last time when the text is
 * the same. Re-plans and idempotence rounds stub the same results the same way, and a new object
 * each time made every round price each stub again and rebuild its projected copy (the view and
 * project() cache by part identity; 1,550 stubs per lip re-plan on the bench's 10k messages).
 */
export function stubPart(part: ToolResultPart, text: string): ToolResultPart {
  const last = stubParts.get(part)
  const block = last?.content[0]
  if (last && last.content.length === 1 && block?.kind === 'text' && block.text === text)
    return last
  const made: ToolResultPart = withFields(part, { content: [{ kind: 'text' as const, text }] })
  stubParts.set(part, made)
  return made
}
const stubParts = new WeakMap<ToolResultPart, ToolResultPart>()

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** A matcher for texts this template produced (placeholders match anything). */
export function stubMatcher(template: string): (text: string) => boolean {
  // One matcher per template: its identity keys per-run caches (collect.ts).
  let matcher = matchers.get(template)
  if (!matcher) {
    matcher = buildMatcher(template)
    if (matchers.size >= 64) matchers.clear()
    matchers.set(template, matcher)
  }
  return matcher
}
const matchers = new Map<string, (text: string) => boolean>()

function buildMatcher(template: string): (text: string) => boolean {
  const parts = template.split(PLACEHOLDER_RE)
  // split with a capture group alternates literal, name, literal, …
  const source = parts.map((p, i) => (i % 2 === 0 ? escapeRe(p) : '[\\s\\S]*?')).join('')
  const re = new RegExp(`^${source}$`)
  const max = template.length + 4096
  return (text) => text.startsWith(STUB_MARK) || (text.length <= max && re.test(text))
}

/** Python `len(text)`: code points, not UTF-16 units. */
export function codePointLength(text: string): number {
  let n = text.length
  for (let i = 0; i < text.length - 1; i++) {
    const c = text.charCodeAt(i)
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = text.charCodeAt(i + 1)
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--
        i++
      }
    }
  }
  return n
}

/** `len(text.encode("utf-8"))` (lone surrogates counted as 3 bytes). */
export function utf8Bytes(text: string): number {
  let n = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c < 0x80) n += 1
    else if (c < 0x800) n += 2
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1)
      if (d >= 0xdc00 && d <= 0xdfff) {
        n += 4
        i++
      } else n += 3
    } else n += 3
  }
  return n
}

/** LIP `_get_content_as_string`: text items joined by newlines (images and files ignored). */
export function flattenText(content: readonly ResultContent[]): string {
  const texts: string[] = []
  for (const c of content) if (c.kind === 'text') texts.push(c.text)
  return texts.join('\n')
}

/** Bytes of the non-text items of a result (images, files, opaque payloads). */
export function attachmentBytes(content: readonly ResultContent[]): number {
  let n = 0
  for (const c of content) {
    if (c.kind === 'image' || c.kind === 'file') n += c.bytes
    else if (c.kind === 'opaque') n += c.opaque.bytes
  }
  return n
}
