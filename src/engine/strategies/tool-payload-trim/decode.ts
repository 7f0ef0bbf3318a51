// Tool-call arguments and result text decoded as PHP would, into the arrays the rules read.
import type { ToolCallPart, ToolResultPart } from '../../model.ts'
import { phpJsonDecode, type PhpArray } from './php-json.ts'

const decodedArgs = new WeakMap<ToolCallPart, PhpArray | null>()

/**
 * `decodeObject(part.argsRaw)`, once per (immutable) call part: every re-plan and round keys the
 * same calls again. The value is shared, so it is only read (as everything here does).
 */
export function decodeArgs(part: ToolCallPart): PhpArray | null {
  const hit = decodedArgs.get(part)
  if (hit !== undefined) return hit
  const made = decodeObject(part.argsRaw)
  decodedArgs.set(part, made)
  return made
}

/** `json_decode($text, true)` when it yields an array; null otherwise (PHP would have no fields). */
export function decodeObject(text: string): PhpArray | null {
  const d = phpJsonDecode(text)
  return d.ok && d.value !== null && typeof d.value === 'object' && d.value.kind === 'array'
    ? d.value
    : null
}

const decodedResults = new WeakMap<ToolResultPart, PhpArray | null>()

/**
 * `decodeObject(text)` of a result's text, once per (immutable) result part: like the arguments,
 * the same value whatever the thresholds, so a threshold edit does not decode every result again.
 */
export function decodeResult(part: ToolResultPart, text: string): PhpArray | null {
  const hit = decodedResults.get(part)
  if (hit !== undefined) return hit
  const made = text.trimStart().startsWith('{') ? decodeObject(text) : null
  decodedResults.set(part, made)
  return made
}
