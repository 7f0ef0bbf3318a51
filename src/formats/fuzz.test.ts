import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { inspectConversation } from '../engine/inspect.ts'
import { estimateCounter } from '../engine/tokens/index.ts'
import type { FormatId } from '../engine/model.ts'
import { FORMAT_IDS, importTranscript } from './index.ts'

/**
 * Mutated and random inputs must never crash an importer (SPEC §9): every outcome is either a
 * conversation (which the engine can then inspect) or an error with a position.
 */
const sample = readFileSync(resolve(__dirname, '../../public/samples/coding-session.jsonl'), 'utf8')
  .split('\n')
  .slice(0, 40)
  .join('\n')

const seeds = [
  sample,
  JSON.stringify({
    model: 'gpt-4o',
    messages: [
      { role: 'user', content: 'hi' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }],
      },
      { role: 'tool', tool_call_id: 'c', content: 'ok' },
    ],
  }),
  JSON.stringify({
    system: 'be brief',
    max_tokens: 10,
    messages: [
      { role: 'user', content: [{ type: 'text', text: 'hi' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'f', input: { a: 1 } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: 'ok' }] },
    ],
  }),
  JSON.stringify({
    contents: [
      { role: 'user', parts: [{ text: 'hi' }] },
      { role: 'model', parts: [{ functionCall: { name: 'f', args: {} } }] },
    ],
  }),
  '{"timestamp":"t","type":"session_meta","payload":{"id":"x"}}\n{"timestamp":"t","type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"{}","call_id":"c"}}',
  '# aider chat started at 2024-01-01 00:00:00\n\n#### hello\n\nHi there.\n\n> Tokens: 1k sent, 10 received.\n',
]

/** Either a conversation the engine can count, or an error positioned inside the input. */
function check(text: string, format?: FormatId): void {
  const outcome = importTranscript(text, format ? { format } : {})
  if (outcome.result.ok) {
    const { conversation } = outcome.result
    const report = inspectConversation(conversation, estimateCounter)
    expect(Number.isSafeInteger(report.tokens.total)).toBe(true)
    expect(report.messages).toBe(conversation.messages.length)
  } else {
    const { error } = outcome.result
    expect(error.message).not.toMatch(/failed unexpectedly|call stack/)
    expect(error.message.length).toBeGreaterThan(0)
    expect(Number.isInteger(error.line) && error.line >= 0).toBe(true)
    expect(error.offset >= 0 && error.offset <= text.length).toBe(true)
  }
}

describe('mutated input never crashes an importer', () => {
  it('survives truncation, deletion, insertion and replacement', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...seeds),
        fc.array(
          fc.record({
            at: fc.double({ min: 0, max: 1, noNaN: true }),
            op: fc.constantFrom('truncate', 'delete', 'insert', 'replace'),
            text: fc.constantFrom(
              '{',
              '}',
              '[',
              ']',
              '"',
              ',',
              ':',
              'null',
              '1',
              '\n',
              '"type":',
              'x',
              '\\',
            ),
          }),
          { minLength: 1, maxLength: 4 },
        ),
        (seed, edits) => {
          let s = seed
          for (const e of edits) {
            const i = Math.floor(e.at * s.length)
            if (e.op === 'truncate') s = s.slice(0, i)
            else if (e.op === 'delete') s = s.slice(0, i) + s.slice(i + 1 + (i % 7))
            else if (e.op === 'insert') s = s.slice(0, i) + e.text + s.slice(i)
            else s = s.slice(0, i) + e.text + s.slice(i + e.text.length)
          }
          check(s)
        },
      ),
      { numRuns: 2000 },
    )
  })

  it('survives arbitrary JSON values under every forced format', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), fc.constantFrom(...FORMAT_IDS), (value, format) =>
        check(JSON.stringify(value), format),
      ),
      { numRuns: 2000 },
    )
  })

  it('survives random text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (s) => check(s)),
      { numRuns: 300 },
    )
  })
})
