import { describe, expect, it } from 'vitest'
import type { Conversation } from '../engine/model.ts'
import { estimateCounter } from '../engine/tokens/index.ts'
import { importTranscript } from '../formats/index.ts'
import { prepare } from '../engine/compaction/prepared.ts'
import { sweTextTrajectory } from '../formats/swe-agent/text-actions.testing.ts'
import { groupDetail } from './detail.ts'
import { groupFacts } from './facts.ts'
import { cut, formatBytes } from './detail-parts.ts'
import type { GroupDetail } from './types.ts'
import { PreparedCache, runSummary, type RunRecord } from './run.ts'

const B64 = 'iVBORw0KGgo'.repeat(400)

/** An OpenAI chat body: the agent reads the same file three times; the user sends an image. */
function conversation(): Conversation {
  const file = (v: number) => `// version ${v}\n` + 'export const x = 1\n'.repeat(60)
  const read = (id: string) => ({
    id,
    type: 'function',
    function: { name: 'read_file', arguments: JSON.stringify({ path: 'src/a.ts' }) },
  })
  const body = {
    model: 'gpt-4o',
    messages: [
      { role: 'system', content: 'You are a coding agent.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Fix the bug in src/a.ts, see the screenshot' },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${B64}` } },
        ],
      },
      { role: 'assistant', content: null, tool_calls: [read('c1')] },
      { role: 'tool', tool_call_id: 'c1', content: file(1) },
      { role: 'assistant', content: null, tool_calls: [read('c2')] },
      { role: 'tool', tool_call_id: 'c2', content: file(2) },
      { role: 'assistant', content: null, tool_calls: [read('c3')] },
      { role: 'tool', tool_call_id: 'c3', content: file(3) },
      { role: 'assistant', content: 'Fixed <script>alert(1)</script>.' },
    ],
  }
  const { result } = importTranscript(JSON.stringify(body), { fileName: 'chat.json' })
  if (!result.ok) throw new Error(result.error.message)
  return result.conversation
}

const SMALL = {
  version: 1,
  window: { contextTokens: 2000, reservedOutput: 100 },
  pipeline: [{ strategy: 'supersede-stale-results', params: { minToolOutputTokens: 1 } }],
}

async function record(conv: Conversation): Promise<RunRecord> {
  const outcome = await runSummary(conv, estimateCounter, SMALL, { cache: new PreparedCache() })
  if (outcome.kind !== 'ran') throw new Error(`expected a run, got ${outcome.kind}`)
  return outcome.record
}

function detail(
  conv: Conversation,
  rec: RunRecord | null,
  groupId: string,
  maxChars = 10_000,
): GroupDetail {
  const d = groupDetail(conv, estimateCounter, rec, groupId, maxChars)
  if (!d) throw new Error(`no detail for ${groupId}`)
  return d
}

describe('groupDetail', async () => {
  const conv = conversation()
  const rec = await record(conv)
  const { ids, status } = rec.summary.groups
  const idOf = (s: string) => ids[status.indexOf(s as never)] as string

  it('shows a stubbed group before and after, with the stub flagged as replaced', () => {
    const d = detail(conv, rec, idOf('stubbed'))
    expect(d.status).toBe('stubbed')
    expect(d.kind).toBe('tool_call')
    expect(d.tools).toEqual(['read_file'])
    expect(d.resource).toContain('src/a.ts')
    expect(d.configName).toBe('custom')
    expect(d.before.map((m) => m.role)).toEqual(['assistant', 'tool'])
    const call = d.before[0]?.parts[0]
    expect(call).toMatchObject({ kind: 'tool_call', truncated: false })
    expect(call?.label).toContain('read_file')
    expect(call?.label).toContain('c2')
    expect(call?.text).toBe(JSON.stringify({ path: 'src/a.ts' }))
    const result = d.before[1]?.parts[0]
    expect(result?.kind).toBe('tool_result')
    expect(result?.text).toContain('// version 2')
    expect(result?.replaced).toBeUndefined()

    const after = d.after ?? []
    expect(after.map((m) => m.id)).toEqual(d.before.map((m) => m.id))
    // The call stays as it was; the result is a stub, shorter and cheaper.
    expect(after[0]?.parts[0]?.replaced).toBeUndefined()
    const stub = after[1]?.parts[0]
    expect(stub?.replaced).toBe(true)
    expect(stub?.text).not.toContain('// version 2')
    expect(stub?.tokens).toBeLessThan(result?.tokens as number)
    expect(d.tokens.after).toBeLessThan(d.tokens.before)
    expect(d.tokens.before).toBe(d.before.reduce((a, m) => a + m.tokens, 0))
    expect(d.tokens.after).toBe(after.reduce((a, m) => a + m.tokens, 0))
    // Figures match the summary the table shows.
    const index = ids.indexOf(d.groupId)
    expect(d.tokens.before).toBe(rec.summary.groups.tokensBefore[index])
    expect(d.tokens.after).toBe(rec.summary.groups.tokensAfter[index])

    expect(d.decisions.map((x) => [x.kind, x.strategy])).toEqual([
      ['stub', 'supersede-stale-results'],
    ])
    expect(d.decisions[0]?.reason).toBe('superseded')
    expect(d.decisions[0]?.tokensAfter).toBeLessThan(d.decisions[0]?.tokensBefore as number)
    expect(d.summaries).toEqual([])
  })

  it('shows an excluded group with nothing after, and a kept one unchanged', () => {
    const excluded = detail(conv, rec, idOf('excluded'))
    expect(excluded.after).toEqual([])
    expect(excluded.tokens.after).toBe(0)
    expect(excluded.decisions.map((x) => x.kind)).toEqual(['exclude'])

    const kept = detail(conv, rec, idOf('kept'))
    expect(kept.after).toEqual(kept.before)
    expect(kept.decisions).toEqual([])
  })

  it('cuts long text at maxChars and says so, keeping the full length', () => {
    const d = detail(conv, rec, idOf('stubbed'), 20)
    const result = d.before[1]?.parts[0]
    expect(result?.text).toHaveLength(20)
    expect(result?.truncated).toBe(true)
    expect(result?.chars).toBeGreaterThan(1000)
    expect(d.before[1]?.raw).toHaveLength(20)
    expect(d.before[1]?.rawChars).toBeGreaterThan(1000)
    // "Show more" with no limit gets everything.
    const all = detail(conv, rec, idOf('stubbed'), Number.POSITIVE_INFINITY)
    expect(all.before[1]?.parts[0]?.truncated).toBe(false)
    expect(all.before[1]?.parts[0]?.text).toHaveLength(result?.chars as number)
  })

  it('shows images as a size line and never puts base64 in text or raw JSON', () => {
    const { roles } = groupFacts(conv, rec.prepared.grouping)
    const userGroup = ids.find((_, i) => roles[i] === 'user') as string
    const d = detail(conv, rec, userGroup)
    const parts = d.before[0]?.parts ?? []
    expect(parts.map((p) => p.kind)).toEqual(['text', 'image'])
    expect(parts[1]?.label).toBe('image/png')
    expect(parts[1]?.text).toMatch(/^image\/png, [\d.]+ kB inline$/)
    expect(parts[1]?.tokens).toBeGreaterThan(0)
    expect(d.before[0]?.raw).not.toContain(B64.slice(0, 40))
    expect(d.before[0]?.raw).toContain('of inline data omitted')
    expect(() => JSON.parse(d.before[0]?.raw as string) as unknown).not.toThrow()
  })

  it('shows a system message group, and the top-level system prompt as g:system', async () => {
    const inChat = detail(conv, rec, ids[0] as string)
    expect(inChat.kind).toBe('system')
    expect(inChat.before[0]?.parts[0]?.text).toBe('You are a coding agent.')

    // Anthropic keeps the system prompt outside the messages: a group without messages.
    const body = {
      model: 'claude-sonnet-4-5',
      max_tokens: 1024,
      system: [{ type: 'text', text: 'You are terse.' }],
      messages: [{ role: 'user', content: 'Hi' }],
    }
    const { result } = importTranscript(JSON.stringify(body), { fileName: 'req.json' })
    if (!result.ok) throw new Error(result.error.message)
    const anth = result.conversation
    const d = detail(anth, await record(anth), 'g:system')
    expect(d.kind).toBe('system')
    expect(d.before).toHaveLength(1)
    expect(d.before[0]).toMatchObject({ role: 'system', index: -1 })
    expect(d.before[0]?.parts[0]?.text).toBe('You are terse.')
    expect(d.after).toEqual(d.before)
    expect(d.tokens.before).toBeGreaterThan(0)
    expect(d.tokens.before).toBe(d.before[0]?.tokens)
  })

  it('works before any run: no after side, status kept', () => {
    const d = detail(conv, null, idOf('stubbed'))
    expect(d.after).toBeNull()
    expect(d.tokens.after).toBeNull()
    expect(d.status).toBe('kept')
    expect(d.decisions).toEqual([])
    expect(d.configName).toBeNull()
    expect(d.before[1]?.parts[0]?.text).toContain('// version 2')
  })

  it('keeps markup as plain text (the UI renders it as text)', () => {
    const last = ids.at(-1) as string
    const d = detail(conv, rec, last)
    expect(d.before[0]?.parts[0]?.text).toBe('Fixed <script>alert(1)</script>.')
  })

  it('returns null for an unknown group', () => {
    expect(groupDetail(conv, estimateCounter, rec, 'g-nope', 100)).toBeNull()
    expect(groupDetail(conv, estimateCounter, null, 'g-nope', 100)).toBeNull()
  })
})

describe('detail helpers', () => {
  it('cuts without splitting a surrogate pair', () => {
    expect(cut('ab😀cd', 3)).toEqual({ text: 'ab', truncated: true })
    expect(cut('abc', 3)).toEqual({ text: 'abc', truncated: false })
  })

  it('formats sizes in decimal units', () => {
    expect(formatBytes(512)).toBe('512 B')
    expect(formatBytes(1024)).toBe('1.0 kB')
    expect(formatBytes(48_000)).toBe('48 kB')
    expect(formatBytes(2_100_000)).toBe('2.1 MB')
  })
})

describe('detail of calls read from text (issue 12)', () => {
  it('marks a derived call and its observation derivedFrom text; recorded parts carry no mark', () => {
    const swe = importTranscript(JSON.stringify(sweTextTrajectory))
    if (!swe.result.ok) throw new Error(swe.result.error.message)
    const conv = swe.result.conversation
    const prepared = prepare(conv, estimateCounter)
    const group = prepared.grouping.groups.find((g) => g.kind === 'tool_call')
    if (!group) throw new Error('no tool_call group')
    const d = groupDetail(conv, estimateCounter, null, group.id, 1000)
    const parts = d?.before.flatMap((m) => m.parts) ?? []
    expect(parts.filter((p) => p.derivedFrom === 'text').map((p) => p.kind)).toEqual([
      'tool_call',
      'tool_result',
    ])
    expect(parts.find((p) => p.kind === 'text')?.derivedFrom).toBeUndefined()
  })
})
