import { describe, expect, it } from 'vitest'
import { prepare } from '../engine/compaction/prepared.ts'
import { DEFAULT_PROTECTIONS } from '../engine/compaction/protect.ts'
import { compact } from '../engine/compaction/run.ts'
import type { Conversation, TextPart } from '../engine/model.ts'
import { assessRisk } from '../engine/risk/index.ts'
import { STRATEGY_REGISTRY } from '../engine/strategies/index.ts'
import { estimateCounter } from '../engine/tokens/index.ts'
import {
  buildCompactReport,
  CSV_COLUMNS,
  csvField,
  decisionsCsv,
  DEFAULT_CSV_COLUMNS,
  reportJson,
  type CompactReport,
  type ReportDecision,
} from './reports.ts'

/** A tiny RFC 4180 reader: enough to prove the writer round-trips. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = []
  let row: string[] = []
  let field = ''
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"'
        i++
      } else if (ch === '"') quoted = false
      else field += ch
    } else if (ch === '"') quoted = true
    else if (ch === ',') {
      row.push(field)
      field = ''
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(field)
      rows.push(row)
      row = []
      field = ''
      i++
    } else field += ch
  }
  if (field !== '' || row.length > 0) rows.push([...row, field])
  return rows
}

const decision = (over: Partial<ReportDecision>): ReportDecision => ({
  kind: 'stub',
  strategy: 'supersede-stale-results',
  step: 0,
  reason: 'superseded',
  groupId: 'g1',
  tokensBefore: 100,
  tokensAfter: 10,
  detail: 'plain',
  ...over,
})
const tricky = 'Stubbed `read`, for "src/a.ts"\nsecond line, with\r\nCRLF'

describe('decisionsCsv', () => {
  it('writes the default columns, one row per decision, CRLF ends', () => {
    const csv = decisionsCsv({ decisions: [decision({}), decision({ kind: 'exclude' })] })
    const lines = csv.split('\r\n')
    expect(lines[0]).toBe(DEFAULT_CSV_COLUMNS.join(','))
    expect(lines[0]).toBe(
      'index,kind,strategy,step,groupId,reason,tokensBefore,tokensAfter,saved,detail',
    )
    expect(lines[1]).toBe('0,stub,supersede-stale-results,0,g1,superseded,100,10,90,plain')
    expect(lines[2]?.startsWith('1,exclude,')).toBe(true)
    expect(csv.endsWith('\r\n')).toBe(true)
    expect(lines).toHaveLength(4)
  })

  it('quotes commas, quotes and newlines (RFC 4180) and round-trips through a parser', () => {
    expect(csvField('a,b')).toBe('"a,b"')
    expect(csvField('say "hi"')).toBe('"say ""hi"""')
    expect(csvField('two\nlines')).toBe('"two\nlines"')
    expect(csvField('cr\rhere')).toBe('"cr\rhere"')
    expect(csvField('plain')).toBe('plain')
    expect(csvField(-3)).toBe('-3')

    const decisions = [
      decision({ detail: tricky, groupId: 'g,7', fixed: 'faithful "mode" would, drop' }),
      decision({ kind: 'protected', detail: '', tokensAfter: 100, round: 1 }),
    ]
    const columns = [...CSV_COLUMNS]
    const rows = parseCsv(decisionsCsv({ decisions }, columns))
    expect(rows[0]).toEqual(columns)
    expect(rows).toHaveLength(3)
    const back = rows.slice(1).map((r) => Object.fromEntries(columns.map((c, i) => [c, r[i]])))
    expect(back[0]).toMatchObject({
      index: '0',
      detail: tricky,
      groupId: 'g,7',
      fixed: 'faithful "mode" would, drop',
      round: '0',
      saved: '90',
    })
    expect(back[1]).toMatchObject({ index: '1', kind: 'protected', detail: '', round: '1' })
  })

  it('writes the chosen columns in the chosen order and rejects unknown ones', () => {
    const csv = decisionsCsv({ decisions: [decision({ detail: 'a, b' })] }, [
      'saved',
      'detail',
      'kind',
    ])
    expect(csv).toBe('saved,detail,kind\r\n90,"a, b",stub\r\n')
    expect(() => decisionsCsv({ decisions: [] }, ['index', 'nope'])).toThrow(/unknown CSV column/)
    expect(decisionsCsv({ decisions: [] })).toBe(DEFAULT_CSV_COLUMNS.join(',') + '\r\n')
  })
})

describe('buildCompactReport', () => {
  const text = (t: string): TextPart => ({ kind: 'text', text: t })
  const big = Array.from({ length: 300 }, (_, i) => `line ${i}`).join('\n')
  const conversation: Conversation = {
    meta: { format: 'openai-chat' },
    system: [text('be brief')],
    tools: [],
    markers: [],
    messages: [1, 2].flatMap((i) => [
      { id: `u${i}`, role: 'user' as const, parts: [text(`read it, "take ${i}"`)] },
      {
        id: `a${i}`,
        role: 'assistant' as const,
        parts: [
          {
            kind: 'tool_call' as const,
            callId: `c${i}`,
            name: 'read_file',
            argsRaw: '{"path":"a.ts"}',
            args: { path: 'a.ts' },
          },
        ],
      },
      {
        id: `t${i}`,
        role: 'tool' as const,
        parts: [
          {
            kind: 'tool_result' as const,
            callId: `c${i}`,
            content: [text(big)],
            isError: false,
          },
        ],
      },
    ]),
  }

  it('has the SPEC §8 fields, and the CSV has one row per report decision', async () => {
    const prepared = prepare(conversation, estimateCounter)
    const result = await compact(
      prepared,
      {
        window: { contextTokens: 10_000, reservedOutput: 0, buffer: 0 },
        protections: { ...DEFAULT_PROTECTIONS, recentTurns: 0 },
        fallback: { enabled: false, strict: false },
        pipeline: [
          {
            strategy: 'supersede-stale-results',
            enabled: true,
            params: { minToolOutputTokens: 10, maxStubsPerResource: null },
          },
        ],
      },
      { counter: estimateCounter },
      STRATEGY_REGISTRY,
    )
    const report: CompactReport = buildCompactReport(result, {
      file: 'chat.json',
      config: { name: 'tight', preset: 'lip' },
      risk: assessRisk(prepared, result),
    })
    expect(report).toMatchObject({
      file: 'chat.json',
      format: 'openai-chat',
      config: { name: 'tight', preset: 'lip' },
      tokens: {
        before: result.tokensBefore,
        after: result.tokensAfter,
        saved: result.tokensBefore - result.tokensAfter,
      },
      invariants: { ok: true, violations: [] },
    })
    expect(report.replay).toBeUndefined()
    // Stubbed re-reads of one file: the agent used nothing only they held.
    expect(report.risk).toEqual({ usedLater: 0, tokens: 0, items: [] })
    const stub = report.decisions.find((d) => d.kind === 'stub')
    expect(stub).toMatchObject({ strategy: 'supersede-stale-results', step: 0, groupId: /^g/ })
    expect(JSON.parse(reportJson(report))).toEqual(report)
    expect(reportJson(report).endsWith('}\n')).toBe(true)

    const rows = parseCsv(decisionsCsv(report))
    expect(rows).toHaveLength(report.decisions.length + 1)
    const at = report.decisions.indexOf(stub as ReportDecision)
    expect(rows[at + 1]?.[DEFAULT_CSV_COLUMNS.indexOf('detail')]).toBe(stub?.detail)
  })
})
