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

/**
 * A plan's kept-field notes, worded once per plan: the threshold only decides whether the note
 * on an earlier meta over it is added, so both forms are kept (with the largest meta size) —
 * not a note list and a map entry per plan per threshold value (one plan per part: thousands
 * per edit of a threshold).
 */
interface KeptTexts {
  /** The largest `_tool_compaction` meta kept (-1: none). */
  readonly metaBytes: number
  readonly withMeta: string
  readonly without: string
}
const keptTexts = new WeakMap<CompactionPlan, KeptTexts>()

function wordFields(omitted: readonly OmittedField[]): string {
  const list = omitted.map((o) => `${o.key} (${o.bytes} bytes, sha256 ${o.sha256.slice(0, 12)}…)`)
  return `${omitted.length === 1 ? 'field' : 'fields'} ${list.join(', ')}`
}

/** "; identifier field path (300 bytes) kept" — only what was kept although over the threshold. */
export function describeKept(plan: CompactionPlan, threshold: number): string {
  let k = keptTexts.get(plan)
  if (!k) {
    k = wordKept(plan)
    keptTexts.set(plan, k)
  }
  return k.metaBytes > threshold ? k.withMeta : k.without
}

function wordKept(plan: CompactionPlan): KeptTexts {
  const notes: string[] = []
  const ids = plan.kept.filter((k) => k.why === 'identifier')
  if (ids.length > 0)
    notes.push(
      `identifier ${ids.length === 1 ? 'field' : 'fields'} ${ids.map((k) => `${k.key} (${k.bytes} bytes)`).join(', ')} never trimmed`,
    )
  const failed = plan.kept.filter((k) => k.why === 'encode_failed')
  if (failed.length > 0)
    notes.push(`${failed.map((k) => k.key).join(', ')} left as is: PHP json_encode fails on it`)
  let metaBytes = -1
  for (const k of plan.kept) if (k.why === 'meta' && k.bytes > metaBytes) metaBytes = k.bytes
  const join = (list: readonly string[]) => (list.length > 0 ? `; ${list.join('; ')}` : '')
  return {
    metaBytes,
    without: join(notes),
    withMeta: join([...notes, 'the existing _tool_compaction meta is not re-trimmed']),
  }
}
