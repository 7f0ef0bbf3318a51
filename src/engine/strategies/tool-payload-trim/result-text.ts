/**
 * What a result's text is, measured once per part: the text itself, its UTF-8 size, its PHP
 * `json_encode` form and that form's SHA-256. None of it depends on the params, so an edit of
 * `outputTrimBytes` (every keystroke in the app) no longer re-joins, re-escapes and re-hashes every
 * result of the conversation: on the bench's 10,000 messages that was about 0.5 s per re-plan.
 */
import type { ToolResultPart } from '../../model.ts'
import { phpJsonString } from './php-json.ts'
import { sha256, utf8Length } from './sha256.ts'

export interface ResultText {
  readonly text: string
  /** UTF-8 bytes of `text`. */
  size(): number
  /** `json_encode($text)` as PHP writes it, or null when PHP would refuse it. */
  json(): string | null
  /** SHA-256 (hex) of `json()`; only asked for when `json()` is not null. */
  sha256(): string
}

const texts = new WeakMap<ToolResultPart, ResultText>()

/** The text parts of a result joined by newlines (callers check there are no attachments). */
export function resultTextOf(part: ToolResultPart): ResultText {
  let known = texts.get(part)
  if (!known) {
    const text = part.content.map((c) => (c.kind === 'text' ? c.text : '')).join('\n')
    let size: number | undefined
    let json: string | null | undefined
    let hash: string | undefined
    known = {
      text,
      size: () => (size ??= utf8Length(text)),
      json: () => (json === undefined ? (json = phpJsonString(text)) : json),
      sha256: () => (hash ??= sha256(known?.json() ?? '')),
    }
    texts.set(part, known)
  }
  return known
}
