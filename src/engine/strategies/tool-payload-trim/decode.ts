// Tool-call arguments and result text decoded as PHP would, into the arrays the rules read.
import type { ToolCallPart } from '../../model.ts'
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
