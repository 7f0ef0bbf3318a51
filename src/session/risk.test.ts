import { describe, expect, it } from 'vitest'
import type { Conversation } from '../engine/model.ts'
import { estimateCounter } from '../engine/tokens/index.ts'
import { importTranscript } from '../formats/index.ts'
import { compareConfigs } from './compare.ts'
import { groupDetail } from './detail.ts'
import { exportReportFile } from './export.ts'
import { PreparedCache, runSummary } from './run.ts'
import { Session } from './session.ts'
import { sweepConfig } from './sweep.ts'
import { clearing } from './test-conversation.ts'

/**
 * The agent greps for a function, reads another file, then names the function and the file it
 * found: clearing all but the newest result removes the grep output it relied on.
 */
function usedLaterBody(): object {
  const filler = 'lorem ipsum dolor sit amet\n'.repeat(80)
  const call = (id: string, name: string, args: object) => ({
    role: 'assistant',
    content: null,
    tool_calls: [{ id, type: 'function', function: { name, arguments: JSON.stringify(args) } }],
  })
  const body = {
    model: 'gpt-4o',
    messages: [
      { role: 'user', content: 'The settings loader crashes on empty files.' },
      call('c1', 'grep', { pattern: 'def parse' }),
      {
        role: 'tool',
        tool_call_id: 'c1',
        content: `src/settings/loader.py:212: def parse_config(path):\n${filler}`,
      },
      call('c2', 'read_file', { path: 'notes.txt' }),
      { role: 'tool', tool_call_id: 'c2', content: filler },
      { role: 'assistant', content: 'I will guard parse_config in src/settings/loader.py.' },
    ],
  }
  return body
}

function usedLaterConversation(): Conversation {
  const { result } = importTranscript(JSON.stringify(usedLaterBody()), { fileName: 'chat.json' })
  if (!result.ok) throw new Error(result.error.message)
  return result.conversation
}

describe('risk across the worker: run, detail, report, compare, sweep', () => {
  const conv = usedLaterConversation()

  it('a run carries the count, the tokens and the items; the detail and report agree', async () => {
    const cache = new PreparedCache()
    const outcome = await runSummary(conv, estimateCounter, clearing(1), { cache })
    if (outcome.kind !== 'ran') throw new Error(outcome.kind)
    const { risk } = outcome.summary
    if (!risk) throw new Error('risk deferred without asking')
    expect(risk.usedLater).toBe(1)
    expect(risk.itemCount).toBe(1)
    const [item] = risk.items
    expect(item?.evidence).toEqual(['parse_config', 'src/settings/loader.py'])
    expect(risk.tokens).toBe(item?.tokens)
    expect(risk.tokens).toBeGreaterThan(0)

    const detail = groupDetail(conv, estimateCounter, outcome.record, item?.groupId ?? '', 200)
    expect(detail?.usedLater).toEqual(item)
    const other = outcome.summary.groups.ids.find((id) => id !== item?.groupId) ?? ''
    expect(groupDetail(conv, estimateCounter, outcome.record, other, 200)?.usedLater).toBeNull()

    const report = JSON.parse(exportReportFile(outcome.record, 'json', {}).text) as {
      risk: unknown
    }
    expect(report.risk).toEqual({ usedLater: 1, tokens: risk.tokens, items: [item] })
  })

  it('a run that defers its risk (the app) leaves it out; the record and the session give it', async () => {
    const cache = new PreparedCache()
    const full = await runSummary(conv, estimateCounter, clearing(1), { cache })
    const deferred = await runSummary(conv, estimateCounter, clearing(1), {
      cache,
      deferRisk: true,
    })
    if (full.kind !== 'ran' || deferred.kind !== 'ran') throw new Error('did not run')
    expect(deferred.summary.risk).toBeNull()
    // Apart from the risk (and the time taken), the summary is the same.
    expect({ ...deferred.summary, risk: null, ms: 0 }).toEqual({
      ...full.summary,
      risk: null,
      ms: 0,
    })
    expect(deferred.record.risk).toEqual(full.record.risk)

    const session = new Session((bytes) => new TextDecoder().decode(bytes))
    session.load({ text: JSON.stringify(usedLaterBody()), fileName: 'chat.json' })
    const ran = await session.run(clearing(1), undefined, () => true, { deferRisk: true })
    if (ran.kind !== 'ok') throw new Error(ran.kind)
    expect(ran.value.risk).toBeNull()
    expect(session.risk()).toEqual({ kind: 'ok', value: full.summary.risk })
  })

  it('compare sides and sweep points carry removed-then-used figures', async () => {
    const compared = await compareConfigs(conv, estimateCounter, clearing(1), clearing(2))
    if (compared.kind !== 'compared') throw new Error(compared.kind)
    expect(compared.result.a.risk.usedLater).toBe(1)
    expect(compared.result.b.risk).toEqual({ usedLater: 0, tokens: 0 })
    const grep = compared.result.differing.find((d) => d.a.usedLater)
    expect(grep).toMatchObject({
      a: { status: 'stubbed' },
      b: { status: 'kept', usedLater: false },
    })

    const swept = await sweepConfig(
      conv,
      estimateCounter,
      clearing(1),
      'pipeline[0].params.keep',
      [0, 1, 2],
      { checkpoint: () => Promise.resolve(true) },
    )
    if (swept.kind !== 'swept') throw new Error(swept.kind)
    expect(swept.points.map((p) => p.risk.usedLater)).toEqual([1, 1, 0])
    expect(swept.points[0]?.risk.tokens).toBeGreaterThan(0)
  })
})
