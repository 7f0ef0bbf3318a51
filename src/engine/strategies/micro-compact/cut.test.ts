import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { ToolResultPart } from '../../model.ts'
import { collapseKeepingNotice, collapseWhitespace } from '../micro-compact.ts'
import { truncationNotice } from '../tool-result-budget.ts'
import { collapseCut, noteCut } from './cut.ts'

const result = (text: string): ToolResultPart => ({
  kind: 'tool_result',
  callId: 'c',
  isError: false,
  content: [{ kind: 'text', text }],
})

/** Texts rich in whitespace runs of every kind \s knows, so cuts often fall inside a run. */
const text = fc
  .array(
    fc.constantFrom('a', 'b', ' ', '  ', '\n', '\t', '\r\n', '\u00a0', '\u2028', 'x y', '[', ']'),
    {
      maxLength: 60,
    },
  )
  .map((pieces) => pieces.join(''))

describe('collapseCut', () => {
  it('collapses a cut as micro_compact collapses its text, for cuts growing, shrinking and repeated', () => {
    fc.assert(
      fc.property(
        text,
        fc.array(fc.integer({ min: 1, max: 70 }), { minLength: 1, maxLength: 6 }),
        (original, maxes) => {
          const part = result(original)
          for (const max of maxes) {
            if (original.length <= max) continue
            const cutText = `${original.slice(0, max)}${truncationNotice(original.length, max)}`
            const cut = result(cutText)
            noteCut(cut, part, original, max)
            expect(collapseCut(cut, cutText, true)).toBe(collapseWhitespace(cutText))
            expect(collapseCut(cut, cutText, false)).toBe(collapseKeepingNotice(cutText))
          }
        },
      ),
    )
  })

  it('leaves a part no cut made (or whose text ends otherwise) to the caller', () => {
    const original = result('a  b\n\nc')
    const cut = result('a  b')
    expect(collapseCut(cut, 'a  b', false)).toBeUndefined()
    noteCut(cut, original, 'a  b\n\nc', 4)
    expect(collapseCut(cut, 'a  b', false)).toBeUndefined()
  })
})
