/**
 * Test support for the clear-tool-uses planners' property tests: random agent rounds (calls whose
 * results come now, one round later, never, or already cleared; some in a sub-agent's thread).
 * Imported by `*.test.ts` files only.
 */
import fc from 'fast-check'
import type { Message, Part } from '../../model.ts'
import { call, messages, result } from '../truncation/testing.ts'

export const PLACEHOLDER = '[cleared]'
export const TOOLS = ['read', 'grep', 'skill', 'bash'] as const

/** One round: an assistant message with 1–2 calls; results now, one round later, or never. */
export const roundArb = fc.record({
  user: fc.boolean(),
  /** Run by a sub-agent (its own thread: out of the main call's context). */
  side: fc.boolean(),
  calls: fc.array(
    fc.record({
      tool: fc.constantFrom(...TOOLS),
      words: fc.integer({ min: 0, max: 30 }),
      when: fc.constantFrom('now', 'now', 'now', 'later', 'never', 'cleared'),
    }),
    { minLength: 1, maxLength: 2 },
  ),
})

export type Round = typeof roundArb extends fc.Arbitrary<infer T> ? T : never

export function build(rounds: readonly Round[]): Message[] {
  const m = messages()
  const out: Message[] = [m('user', 'start')]
  let seq = 0
  let late: Part[] = []
  for (const r of rounds) {
    if (r.user) out.push(m('user', 'next task'))
    const calls: Part[] = []
    const now: Part[] = []
    const later: Part[] = []
    for (const c of r.calls) {
      const id = `c${++seq}`
      calls.push(call(id, c.tool, { path: `f${seq}.ts` }))
      const body = c.when === 'cleared' ? PLACEHOLDER : 'w '.repeat(c.words)
      if (c.when === 'now' || c.when === 'cleared') now.push(result(id, body))
      else if (c.when === 'later') later.push(result(id, body))
    }
    const thread = r.side ? { sidechain: 'sub' } : {}
    out.push(m('assistant', calls, thread))
    const results = [...late, ...now]
    if (results.length > 0) out.push(m('tool', results, thread))
    late = later
  }
  if (late.length > 0) out.push(m('tool', late))
  return out
}
