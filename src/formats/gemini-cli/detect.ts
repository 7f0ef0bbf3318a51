import type { Detection, SniffedInput } from '../types.ts'
import { isObject } from '../util.ts'

/**
 * formats.md §16 rule 4: a JSON object with `sessionId` + `projectHash` + `messages[]` whose
 * records have `type` "user" / "gemini" is a Gemini CLI recording.
 */
export function detectGeminiCli(input: SniffedInput): Detection | null {
  if (input.kind !== 'json' || input.exchange) return null
  const v = input.value
  if (!isObject(v) || !Array.isArray(v.messages)) return null
  const hasSession = typeof v.sessionId === 'string'
  const hasProject = typeof v.projectHash === 'string'
  if (!hasSession && !hasProject) return null
  const types = new Map<string, number>()
  for (const r of v.messages) {
    if (isObject(r) && typeof r.type === 'string') types.set(r.type, (types.get(r.type) ?? 0) + 1)
  }
  const gemini = types.get('gemini') ?? 0
  const user = types.get('user') ?? 0
  const evidence = [
    [hasSession && 'sessionId', hasProject && 'projectHash'].filter(Boolean).join(' + ') +
      ' + messages[]',
    `record types: ${[...types.entries()].map(([t, n]) => `${t} ×${n}`).join(', ') || 'none'}`,
  ]
  let confidence: number
  if (hasSession && hasProject && gemini > 0) confidence = 0.97
  else if (gemini > 0) confidence = 0.75
  else if (hasSession && hasProject && (user > 0 || v.messages.length === 0)) confidence = 0.7
  else return null
  return { format: 'gemini-cli', confidence, evidence }
}
