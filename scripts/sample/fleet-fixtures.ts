/**
 * A fleet of generated transcripts for fleet tests and the fleet bench (issue 16): mixed formats
 * (Claude Code JSONL, OpenAI Chat request bodies), 20–2,000 messages each, sizes log-uniform (most
 * sessions are short, a few are long, as in real fleets). Deterministic for a seed; no Node
 * imports, so the browser bench can build the same files.
 */
import { generateLargeOpenAIChat, generateManyGroupsClaudeCode } from './generate-large.ts'
import { Rng } from './prng.ts'

export interface FleetFixture {
  readonly name: string
  readonly text: string
  /** The message count aimed at (the importer's count is within a few of it). */
  readonly messages: number
}

/** Measured: ≈ 2.05 messages per tool-call group; ≈ 1,300 bytes per OpenAI Chat message. */
const MESSAGES_PER_GROUP = 2.05
const BYTES_PER_OPENAI_MESSAGE = 1300

export function generateFleet(
  count: number,
  seed: number,
  range: { readonly min: number; readonly max: number } = { min: 20, max: 2000 },
): FleetFixture[] {
  const rng = new Rng(seed)
  const out: FleetFixture[] = []
  const lo = Math.log(range.min)
  const hi = Math.log(range.max)
  for (let k = 0; k < count; k++) {
    const messages = Math.round(Math.exp(lo + (hi - lo) * rng.next()))
    const fileSeed = seed * 100_003 + k
    const id = String(k).padStart(4, '0')
    if (k % 2 === 0) {
      const groups = Math.max(1, Math.round(messages / MESSAGES_PER_GROUP))
      out.push({
        name: `session-${id}.jsonl`,
        text: generateManyGroupsClaudeCode(groups, fileSeed),
        messages,
      })
    } else {
      out.push({
        name: `request-${id}.json`,
        text: generateLargeOpenAIChat(messages * BYTES_PER_OPENAI_MESSAGE, fileSeed),
        messages,
      })
    }
  }
  return out
}
