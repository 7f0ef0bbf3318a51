/** The literal texts of adachsoft tool_compaction and our decision sentences' pieces. */
import type { CompactionPlan, OmittedField } from './compact.ts'

export const PLACEHOLDER_PREFIX = '[tool_compaction] Tool result compacted for tool='

/** The message content adachsoft writes for a compacted tool result (README, verbatim). */
export function placeholder(tool: string, callId: string): string {
  return `${PLACEHOLDER_PREFIX}${tool}, callId=${callId}. Large fields omitted.`
}

/** "field content (6000 bytes, sha256 1f2e…)" / "fields a (…), b (…)". */
export function describeFields(omitted: readonly OmittedField[]): string {
  // Plans are memoised per part, so their lists are the same objects on every re-plan: word once.
  const hit = fieldTexts.get(omitted)
  if (hit !== undefined) return hit
  const made = wordFields(omitted)
  fieldTexts.set(omitted, made)
  return made
}

const fieldTexts = new WeakMap<readonly OmittedField[], string>()
const keptTexts = new WeakMap<CompactionPlan, Map<number, string>>()

function wordFields(omitted: readonly OmittedField[]): string {
  const list = omitted.map((o) => `${o.key} (${o.bytes} bytes, sha256 ${o.sha256.slice(0, 12)}…)`)
  return `${omitted.length === 1 ? 'field' : 'fields'} ${list.join(', ')}`
}

/** "; identifier field path (300 bytes) kept" — only what was kept although over the threshold. */
export function describeKept(plan: CompactionPlan, threshold: number): string {
  let byThreshold = keptTexts.get(plan)
  const hit = byThreshold?.get(threshold)
  if (hit !== undefined) return hit
  const made = wordKept(plan, threshold)
  if (!byThreshold) {
    byThreshold = new Map()
    keptTexts.set(plan, byThreshold)
  }
  // Plans are shared by every threshold that omits the same fields: a few thresholds per plan.
  if (byThreshold.size >= 8) byThreshold.clear()
  byThreshold.set(threshold, made)
  return made
}

function wordKept(plan: CompactionPlan, threshold: number): string {
  const notes: string[] = []
  const ids = plan.kept.filter((k) => k.why === 'identifier')
  if (ids.length > 0)
    notes.push(
      `identifier ${ids.length === 1 ? 'field' : 'fields'} ${ids.map((k) => `${k.key} (${k.bytes} bytes)`).join(', ')} never trimmed`,
    )
  const failed = plan.kept.filter((k) => k.why === 'encode_failed')
  if (failed.length > 0)
    notes.push(`${failed.map((k) => k.key).join(', ')} left as is: PHP json_encode fails on it`)
  const meta = plan.kept.filter((k) => k.why === 'meta' && k.bytes > threshold)
  if (meta.length > 0) notes.push('the existing _tool_compaction meta is not re-trimmed')
  return notes.length > 0 ? `; ${notes.join('; ')}` : ''
}
