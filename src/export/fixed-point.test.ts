import { describe, expect, it } from 'vitest'
import { PRESET_IDS } from '../config/presets.ts'
import { prepare } from '../engine/compaction/prepared.ts'
import { compact } from '../engine/compaction/run.ts'
import type { Conversation } from '../engine/model.ts'
import { STRATEGY_REGISTRY } from '../engine/strategies/index.ts'
import { estimateCounter } from '../engine/tokens/index.ts'
import {
  ALL_FORMATS,
  deps,
  nativeSession,
  scaledPreset,
  totalOf,
  twice,
} from './fixtures.testing.ts'
import { exportCompactedTranscript } from './transcript.ts'

/**
 * Issue 10 item 4: compacted output must be a fixed point once written. Compacting the written
 * file again used to compact further (a Claude Code session went 318,726 → 134,710 → 55,601
 * tokens) although the report said "idempotent": the file lost what the projection knew (which
 * messages are summaries, which parts are stubs). For every format × every preset, scaled so
 * that it fires on our own fixture: compact, write, re-import, compact again → no change.
 */
const changesOf = (r: Awaited<ReturnType<typeof twice>>['second']) =>
  r.decisions
    .filter((d) => ['exclude', 'stub', 'trim', 'insert'].includes(d.kind))
    .map((d) => `${d.strategy}:${d.kind}:${d.groupId}`)

describe('compact on compact’s written output changes nothing (every format × every preset)', () => {
  for (const format of ALL_FORMATS) {
    describe(format, () => {
      const conversation = nativeSession(format)
      const total = totalOf(prepare(conversation, estimateCounter))
      for (const id of PRESET_IDS) {
        it(id, async () => {
          const { first, again, second } = await twice(conversation, scaledPreset(id, total))
          expect(first.invariants.ok).toBe(true)
          // The record matched the file: it re-imported as already compacted.
          expect(again.warnings.filter((w) => /compaction_lab/.test(w.message))).toEqual([])
          expect(changesOf(second)).toEqual([])
          expect(second.invariants.ok).toBe(true)
        })
      }
      it('every preset changes something on this fixture (the check above is not vacuous)', async () => {
        let changed = 0
        for (const id of PRESET_IDS) {
          const r = await compact(
            prepare(conversation, estimateCounter),
            scaledPreset(id, total),
            deps,
            STRATEGY_REGISTRY,
          )
          if (r.changes > 0) changed++
        }
        // aider has no tool calls, so the tool-result presets have nothing to act on there.
        expect(changed).toBeGreaterThanOrEqual(format === 'aider' ? 3 : PRESET_IDS.length)
      })
    })
  }
})

describe('what the written file carries', () => {
  it('summaries and stubs re-import as such (summaryOf, compactedBy, supersededBy)', async () => {
    const conversation = nativeSession('openai-chat')
    const total = totalOf(prepare(conversation, estimateCounter))
    const { first, written, again } = await twice(conversation, scaledPreset('recommended', total))
    expect(first.changes).toBeGreaterThan(0)
    expect(written.text).toContain('"compaction_lab"')
    const summaries = (c: Conversation) => c.messages.filter((m) => m.summaryOf).length
    const compacted = (c: Conversation) =>
      c.messages.flatMap((m) => m.parts).filter((p) => p.meta?.compactedBy !== undefined).length
    expect(summaries(again.conversation)).toBe(summaries(first.projection))
    expect(compacted(again.conversation)).toBe(compacted(first.projection))
    expect(compacted(again.conversation)).toBeGreaterThan(0)
  })

  it('an uncompacted conversation is written without a record', () => {
    const conversation = nativeSession('claude-code')
    expect(exportCompactedTranscript(conversation).text).not.toContain('compaction_lab')
  })
})
