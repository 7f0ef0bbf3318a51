import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { PRESET_IDS } from '../config/preset-ids.ts'
import type { Conversation } from '../engine/model.ts'
import { estimateCounter } from '../engine/tokens/index.ts'
import { importTranscript } from '../formats/index.ts'
import { exportReportFile } from './export.ts'
import { PreparedCache, runSummary, type RunOutcome, type RunRecord } from './run.ts'
import { settleRun } from './settle.ts'
import { Session } from './session.ts'
import { clearing, readingBody, readingConversation, SUPERSEDE } from './test-conversation.ts'
import type { RunSummary } from './types.ts'

function ran(outcome: RunOutcome): RunRecord {
  if (outcome.kind !== 'ran') throw new Error(`expected a run, got ${JSON.stringify(outcome)}`)
  return outcome.record
}

/** The summary without its timing (the one field that may differ between two equal runs). */
const figures = ({ ms: _ms, ...rest }: RunSummary) => rest

/** What the store shows once the `settle` reply is in. */
async function settledAsShown(record: RunRecord): Promise<{ shown: RunSummary; rec: RunRecord }> {
  const { record: rec, settled } = await settleRun(record)
  const shown =
    settled.kind === 'same'
      ? { ...record.summary, invariants: settled.invariants, settling: false }
      : settled.summary
  return { shown, rec }
}

function corpusConversation(): Conversation | null {
  const url = new URL(
    '../../../shared/corpus/claude-code/codemie__session-9eda1058.jsonl',
    import.meta.url,
  )
  let text: string
  try {
    text = readFileSync(url, 'utf8')
  } catch {
    return null
  }
  const { result } = importTranscript(text, { fileName: 'session.jsonl' })
  return result.ok ? result.conversation : null
}

const CONFIGS: readonly [string, unknown, string | undefined][] = [
  ...PRESET_IDS.map((p): [string, unknown, string | undefined] => [p, null, p]),
  ['supersede', SUPERSEDE, undefined],
  ['clear 1', clearing(1), undefined],
]

describe('settleRun: the idempotence round after a first-round summary', () => {
  const conversations = [
    ['reading', readingConversation()],
    ['corpus', corpusConversation()],
  ] as const
  for (const [convName, conv] of conversations) {
    for (const [name, config, preset] of CONFIGS) {
      it.skipIf(conv === null)(
        `${convName}, ${name}: settled figures equal one full run`,
        async () => {
          const c = conv as Conversation
          const opts = { cache: new PreparedCache(), ...(preset ? { preset } : {}) }
          const full = ran(await runSummary(c, estimateCounter, config, opts))
          const first = ran(
            await runSummary(c, estimateCounter, config, { ...opts, settleLater: true }),
          )
          expect(first.summary.settling).toBe(true)
          expect(first.summary.invariants.checks.map((k) => k.id)).not.toContain('idempotent')
          const { shown, rec } = await settledAsShown(first)
          expect(figures(shown)).toEqual(figures(full.summary))
          expect(figures(rec.summary)).toEqual(figures(full.summary))
          expect(rec.risk).toEqual(full.risk)
          // Exports read the settled record: the report is the full run's.
          const a = exportReportFile(rec, 'json', {})
          const b = exportReportFile(full, 'json', {})
          expect(a).toEqual(b)
        },
      )
    }
  }

  it('sends the whole settled summary when the later rounds changed the result', async () => {
    const conv = readingConversation()
    const cache = new PreparedCache()
    const full = ran(await runSummary(conv, estimateCounter, SUPERSEDE, { cache }))
    const first = ran(
      await runSummary(conv, estimateCounter, SUPERSEDE, { cache, settleLater: true }),
    )
    // As if the first round had decided less than the settled run does.
    const result = { ...first.result, decisions: first.result.decisions.slice(1) }
    const { record, settled } = await settleRun({ ...first, result, risk: first.risk })
    expect(settled.kind).toBe('changed')
    if (settled.kind !== 'changed') return
    // Its risk follows in the `risk` request, as after any deferred run.
    expect(settled.summary.risk).toBeNull()
    expect({ ...figures(settled.summary), risk: full.summary.risk }).toEqual(figures(full.summary))
    expect(record.risk).toEqual(full.risk)
  })

  it('an export asked before the settle gets the settled report', async () => {
    const session = new Session((b) => new TextDecoder().decode(b))
    session.load({ text: JSON.stringify(readingBody()), fileName: 'chat.json' })
    const full = ran(
      await runSummary(session.conversation as Conversation, estimateCounter, SUPERSEDE, {
        cache: new PreparedCache(),
      }),
    )
    await session.run(SUPERSEDE, undefined, () => true, { settleLater: true })
    expect(session.lastRun?.summary.settling).toBe(true)
    const exported = await session.exportReport('json')
    expect(session.lastRun?.summary.settling).toBe(false)
    expect(exported).toEqual({
      kind: 'ok',
      value: exportReportFile(full, 'json', { sourceFile: 'chat.json' }),
    })
  })

  it('leaves a run that was not deferred as it is', async () => {
    const full = ran(
      await runSummary(readingConversation(), estimateCounter, SUPERSEDE, {
        cache: new PreparedCache(),
      }),
    )
    const { record, settled } = await settleRun(full)
    expect(record).toBe(full)
    expect(settled).toMatchObject({ kind: 'same', invariants: full.summary.invariants })
  })
})
