import { describe, expect, it } from 'vitest'
import type { Conversation, Message, Part } from '../model.ts'
import { buildGroups } from '../groups.ts'
import { conversationOf, type Step } from './builder.testing.ts'
import { KeptContext } from './kept.ts'
import { normalizeText } from './phrases.ts'
import { partPhrases, partText, riskIndexOf } from './transcript-index.ts'

/**
 * The phrase check finds the first kept part holding a phrase through a word index and charges
 * its budget from prefix sums; it must answer exactly as reading the kept parts in order did,
 * budget cut-offs included. This is that reading, kept as the reference.
 */
function referenceKnows(
  original: Conversation,
  keptParts: ReadonlySet<Part>,
  budget: number,
): (phrase: string, later: number) => boolean {
  const scans = new Map<string, { upTo: number; at: number }>()
  let left = budget
  return (phrase, later) => {
    const needle = ` ${phrase} `
    const scan = scans.get(phrase) ?? { upTo: 0, at: Infinity }
    for (let m = scan.upTo; m < later && scan.at === Infinity; m++) {
      for (const part of (original.messages[m] as Message).parts) {
        if (!keptParts.has(part)) continue
        const text = normalizeText(partText(part))
        left -= text.length
        if (left < 0) return true
        if (text.includes(needle)) {
          scan.at = m
          break
        }
      }
      scan.upTo = m + 1
    }
    scans.set(phrase, scan)
    return scan.at < later
  }
}

const steps: Step[] = [{ user: 'The importer fails on some inputs.' }]
for (let i = 0; i < 40; i++) {
  steps.push({
    call: 'run',
    args: { cmd: `import batch_${i % 6}` },
    result:
      `Error: cannot open config file for module alpha_${i % 5} in stage ${i % 3}\n` +
      `note "the quick parser skipped record ${i % 4} twice"\n` +
      'ok\n'.repeat(i % 7),
  })
  if (i % 3 === 0)
    steps.push({ say: `It said cannot open config file for module alpha_${(i + 1) % 5}.` })
  if (i % 4 === 1) steps.push({ say: `Odd: the quick parser skipped record ${i % 4} twice.` })
}

describe('KeptContext.knowsPhrase', () => {
  it('answers as reading the kept parts in order, for every budget', () => {
    const original = conversationOf(steps)
    const index = riskIndexOf(original, buildGroups(original))
    const phrases = [
      ...new Set(original.messages.flatMap((m) => m.parts.flatMap((p) => partPhrases(p)))),
    ].map((p) => p.key)
    expect(phrases.length).toBeGreaterThan(5)
    const n = original.messages.length
    for (const drop of [2, 3, 5]) {
      // Drop every `drop`-th message: the projection keeps the rest as they were.
      const projection = { ...original, messages: original.messages.filter((_, i) => i % drop) }
      for (const budget of [0, 1, 40, 300, 1_500, 6_000, 1e9]) {
        const kept = new KeptContext(original, projection, index, budget)
        const reference = referenceKnows(original, kept.keptParts, budget)
        let seed = drop * 7919 + budget
        for (let q = 0; q < 250; q++) {
          seed = (seed * 1103515245 + 12345) % 2147483648
          const phrase = phrases[seed % phrases.length] as string
          const later = (seed >> 8) % (n + 1)
          const at = `drop ${drop} budget ${budget} query ${q}`
          expect(kept.knowsPhrase(phrase, later), at).toBe(reference(phrase, later))
        }
      }
    }
  })
})
