import type { Detection, SniffedInput } from '../types.ts'
import { isObject } from '../util.ts'
import { isV1Event } from './v1.ts'

function isV0Event(e: unknown): boolean {
  return isObject(e) && ('action' in e || 'observation' in e) && typeof e.source === 'string'
}

/**
 * formats.md §16 rule 5: `action|observation` + `source` → V0; `kind: *Event` → V1. The share
 * of matching elements decides; `tool_call_metadata` / `cause` links add certainty.
 */
export function detect(input: SniffedInput): Detection | null {
  if (input.kind !== 'json') return null
  const events = Array.isArray(input.value)
    ? input.value
    : isObject(input.value) && Array.isArray(input.value.events)
      ? input.value.events
      : null
  if (!events || events.length === 0) return null
  const v0 = events.filter(isV0Event).length
  const v1 = events.filter(isV1Event).length
  if (v0 === 0 && v1 === 0) return null
  if (v1 > v0) {
    const share = v1 / events.length
    return {
      format: 'openhands',
      confidence: share >= 0.9 ? 0.85 : 0.5,
      evidence: [
        `${v1}/${events.length} elements have \`kind\` ending in Event (OpenHands V1 SDK)`,
      ],
    }
  }
  const share = v0 / events.length
  const linked = events.filter(
    (e) => isObject(e) && (isObject(e.tool_call_metadata) || 'cause' in e),
  ).length
  const evidence = [`${v0}/${events.length} elements have \`action\`|\`observation\` + \`source\``]
  if (linked > 0) evidence.push(`${linked} events carry \`tool_call_metadata\` or \`cause\``)
  const confidence =
    share >= 0.9 ? (linked > 0 || events.length <= 3 ? 0.95 : 0.85) : share >= 0.5 ? 0.6 : 0.3
  return { format: 'openhands', confidence, evidence }
}
