import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { StrategyContext } from '../../compaction/context.ts'
import { prepare } from '../../compaction/prepared.ts'
import { computeProtections, DEFAULT_PROTECTIONS } from '../../compaction/protect.ts'
import { WorkingView } from '../../compaction/view.ts'
import type { Message } from '../../model.ts'
import { estimateCounter } from '../../tokens/index.ts'
import { tailByGroups } from '../preserve-tail.ts'
import { tailOfLiveGroups } from './tail.ts'
import { calls, conversation, result, user } from './testing.ts'

/** 10 turns: user, assistant call, tool result (one group each: user and the tool group). */
const messages: Message[] = Array.from({ length: 10 }, (_, i) => [
  user(`u${i}`, `request ${i}`),
  calls(`a${i}`, [[`c${i}`, 'read', { path: `f${i}.ts` }]]),
  result(`t${i}`, `c${i}`, 'read', `contents ${i}`),
]).flat()
const prepared = prepare(conversation(messages, 'system prompt'), estimateCounter)

describe('tailOfLiveGroups', () => {
  it('is the tail tailByGroups finds, whatever is revealed and dropped', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: messages.length }),
        fc.array(fc.integer({ min: 0, max: 25 }), { maxLength: 12 }),
        fc.integer({ min: 0, max: 8 }),
        (limit, dropped, count) => {
          const view = new WorkingView(prepared, 0)
          view.advanceTo(limit)
          for (const g of dropped) if (g < view.visibleGroupCount) view.exclude(g)
          const ctx = new StrategyContext(
            view,
            computeProtections(view, DEFAULT_PROTECTIONS),
            'summarize',
            0,
            { contextTokens: 0, reservedOutput: 0, buffer: 0, usable: 0 },
            undefined,
          )
          const ours = tailOfLiveGroups(ctx, count)
          const theirs = tailByGroups(ctx, count)
          expect({ ...ours, groups: [...ours.groups] }).toEqual({
            ...theirs,
            groups: [...theirs.groups],
          })
        },
      ),
      { numRuns: 300 },
    )
  })
})
