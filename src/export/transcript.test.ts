import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { PRESET_IDS, presetConfig } from '../config/presets.ts'
import { scale } from '../config/scale.ts'
import { toEngineConfig } from '../config/validate.ts'
import { prepare } from '../engine/compaction/prepared.ts'
import { DEFAULT_PROTECTIONS } from '../engine/compaction/protect.ts'
import { compact, type CompactionResult } from '../engine/compaction/run.ts'
import type { EngineConfig } from '../engine/compaction/types.ts'
import type { Conversation, FormatId, Message, Part, TextPart } from '../engine/model.ts'
import { STRATEGY_REGISTRY } from '../engine/strategies/index.ts'
import { createDigestSummarizer } from '../engine/summarize/digest.ts'
import type { Summarizer } from '../engine/summarize/types.ts'
import { estimateCounter } from '../engine/tokens/index.ts'
import { FORMAT_IDS, importerFor, importTranscript, isFormatId, sniff } from '../formats/index.ts'
import { NOT_CONVERSATIONS } from '../formats/testing-corpus.mts'
import { digest } from '../formats/testing.ts'
import { exportCompactedTranscript, SUMMARY_PLACEMENT } from './transcript.ts'

/**
 * Formats that store message ids (or let the serializer pin them): re-import must give back every
 * projection id, inserted summaries included. The others have no message ids at all (API bodies,
 * SWE-agent, aider) or numeric event ids (OpenHands), so ids are positional after re-import and
 * only the order is compared.
 */
const KEEPS_MESSAGE_IDS: ReadonlySet<FormatId> = new Set([
  'claude-code',
  'codex',
  'gemini-cli',
  'opencode',
  'langchain',
])

/** What must survive export → import: the digest (ids only where the format stores them). */
function comparable(c: Conversation, format: FormatId) {
  const d = digest(c)
  return KEEPS_MESSAGE_IDS.has(format) ? d : d.map((m, i) => ({ ...m, id: `#${i}` }))
}

function reimport(text: string, format: FormatId): Conversation {
  const again = importTranscript(text, { format })
  if (!again.result.ok) throw new Error(`re-import failed: ${JSON.stringify(again.result.error)}`)
  return again.result.conversation
}

/** Export, re-import and compare with what the export says it wrote; returns the re-import. */
function roundTrip(result: CompactionResult) {
  const format = result.projection.meta.format
  const out = exportCompactedTranscript(result)
  const again = reimport(out.text, format)
  expect(comparable(again, format)).toEqual(comparable(out.conversation, format))
  // The written conversation is the projection with only its summaries re-placed.
  const plain = (c: Conversation) =>
    digest(c).map((m, i) => (c.messages[i]?.summaryOf ? { ...m, role: '(summary)' } : m))
  expect(plain(out.conversation)).toEqual(plain(result.projection))
  return { out, again }
}

// ---------------------------------------------------------------------------------------------
// Hand-made conversation, written to every format first so each import carries its envelope.

const SUMMARY = 'SUMMARY: the user asked about src/a.ts twice; it now exports versioned constants.'
const fixedSummarizer: Summarizer = {
  id: 'fixed',
  label: 'fixed test summary',
  isLlm: false,
  summarize: () => Promise.resolve({ ok: true, text: SUMMARY }),
}
const text = (t: string): TextPart => ({ kind: 'text', text: t })
const call = (id: string): Part => ({
  kind: 'tool_call',
  callId: id,
  name: 'read_file',
  argsRaw: '{"path":"src/a.ts"}',
  args: { path: 'src/a.ts' },
})
const fileBody = (v: number) =>
  Array.from({ length: 120 }, (_, i) => `export const line${i} = ${v} // version ${v}`).join('\n')
const result = (id: string, v: number): Part => ({
  kind: 'tool_result',
  callId: id,
  name: 'read_file',
  content: [text(fileBody(v))],
  isError: false,
})
const long = (tag: string) =>
  Array.from({ length: 80 }, (_, i) => `${tag} note ${i}: line${i} is an exported number.`).join(
    ' ',
  )

function canonical(format: FormatId): Conversation {
  const m = (id: string, role: Message['role'], parts: Part[]): Message => ({ id, role, parts })
  const aider = format === 'aider' // no tool calls in aider's Markdown: plain turns only
  return {
    meta: { format },
    system: [text('You are a careful coding agent.')],
    tools: [],
    markers: [],
    messages: [
      m('m0', 'user', [text('Please look at src/a.ts and tell me what it exports.')]),
      m('m1', 'assistant', aider ? [text(long('FIRSTPASS'))] : [call('call_1')]),
      m('m2', aider ? 'user' : 'tool', aider ? [text('ok')] : [result('call_1', 1)]),
      m('m3', 'assistant', [text(`It exports 120 constants. ${long('FIRSTPASS')}`)]),
      m('m4', 'user', [text('I changed it. Read it again, please.')]),
      m('m5', 'assistant', aider ? [text('Reading it again.')] : [call('call_2')]),
      m('m6', aider ? 'user' : 'tool', aider ? [text('go on')] : [result('call_2', 2)]),
      m('m7', 'assistant', [text(`Now every constant has version 2. ${long('SECONDPASS')}`)]),
      m('m8', 'user', [text('Thanks. One last check of the file.')]),
      m('m9', 'assistant', aider ? [text('Checking.')] : [call('call_3')]),
      m('m10', aider ? 'user' : 'tool', aider ? [text('fine')] : [result('call_3', 3)]),
      m('m11', 'assistant', [text('Version 3 everywhere now.')]),
    ],
  }
}

function native(format: FormatId): Conversation {
  const importer = importerFor(format)
  const parsed = importer.parse(sniff(importer.serialize(canonical(format))))
  if (!parsed.ok) throw new Error(`${format}: ${parsed.error.message}`)
  return parsed.conversation
}

/** Stub superseded reads, then summarise everything before the last 5 groups. */
function handConfig(
  role: 'system' | 'user' | 'assistant',
  placement: 'first' | 'at_first_covered',
): EngineConfig {
  return {
    window: { contextTokens: 6000, reservedOutput: 0, buffer: 0 },
    protections: { ...DEFAULT_PROTECTIONS, recentTurns: 0 },
    fallback: { enabled: false, strict: false },
    pipeline: [
      {
        strategy: 'supersede-stale-results',
        enabled: true,
        params: { minToolOutputTokens: 10, maxStubsPerResource: null },
      },
      {
        strategy: 'summarize',
        enabled: true,
        params: {
          compactionThreshold: null,
          preserveRecentGroups: 5,
          role,
          placement,
          summaryPrefix: '',
          onFailure: 'fail_open',
        },
      },
    ],
  }
}

async function run(conversation: Conversation, config: EngineConfig, summarizer: Summarizer) {
  return compact(
    prepare(conversation, estimateCounter),
    config,
    { counter: estimateCounter, summarizer },
    STRATEGY_REGISTRY,
  )
}

describe('exportCompactedTranscript: every format, stub + exclude + summary', () => {
  for (const format of FORMAT_IDS) {
    for (const role of ['system', 'user', 'assistant'] as const) {
      it(`${format}: ${role} summary`, async () => {
        const result = await run(native(format), handConfig(role, 'first'), fixedSummarizer)
        const kinds = new Set(result.decisions.map((d) => d.kind))
        expect(kinds.has('exclude') && kinds.has('insert')).toBe(true)
        if (format !== 'aider') expect(kinds.has('stub')).toBe(true)

        const { out, again } = roundTrip(result)
        expect(out.format).toBe(format)
        // The summary is there, once, with its text, in the role the format gives it.
        const summaries = again.messages.filter((m) =>
          m.parts.some((p) => p.kind === 'text' && p.text === SUMMARY),
        )
        expect(summaries).toHaveLength(1)
        expect(summaries[0]?.role).toBe(SUMMARY_PLACEMENT[format](role, true).role)
        expect(out.notes.join('\n')).toMatch(/^summary .* written as /m)
        // Excluded groups are gone from the file (the summary text does not quote them).
        expect(out.text).not.toContain('FIRSTPASS')
        if (format !== 'aider') {
          // Stubs stay stubs: the superseded read is the stub text, with its call id.
          const stub = again.messages
            .flatMap((m) => m.parts)
            .find((p) => p.kind === 'tool_result' && p.callId === 'call_2')
          expect(stub?.kind === 'tool_result' && stub.content[0]?.kind === 'text').toBe(true)
          if (stub?.kind === 'tool_result' && stub.content[0]?.kind === 'text')
            expect(stub.content[0].text).toMatch(/^\[COMPACTED\]/)
          expect(out.text).not.toContain('// version 2')
          expect(out.text).toContain('// version 3')
        }
      })
    }
    it(`${format}: summary placed where the summarised span began`, async () => {
      const result = await run(native(format), handConfig('user', 'at_first_covered'), {
        ...fixedSummarizer,
      })
      roundTrip(result)
    })
  }

  it('Claude Code: a leading summary is a compact_boundary line + isCompactSummary user line', async () => {
    const result = await run(native('claude-code'), handConfig('system', 'first'), fixedSummarizer)
    const out = exportCompactedTranscript(result)
    const lines = out.text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>)
    const at = lines.findIndex((l) => l.subtype === 'compact_boundary')
    expect(at).toBeGreaterThanOrEqual(0)
    const boundary = lines[at] as Record<string, unknown>
    const summary = lines[at + 1] as Record<string, unknown>
    expect(boundary).toMatchObject({ type: 'system', parentUuid: null })
    expect(boundary.compactMetadata).toMatchObject({
      trigger: 'manual',
      preTokens: result.tokensBefore,
    })
    expect(summary).toMatchObject({
      type: 'user',
      isCompactSummary: true,
      parentUuid: boundary.uuid,
      message: { role: 'user', content: SUMMARY },
    })
    // Every later line chains back to a line that exists (Claude Code walks parentUuid).
    const uuids = new Set(lines.map((l) => l.uuid))
    for (const l of lines.slice(at + 1)) expect(uuids.has(l.parentUuid)).toBe(true)
    // What Claude Code (any reader without our record) sees: an upstream compaction.
    const withoutRecord = out.text
      .split('\n')
      .filter((l) => !l.startsWith('{"compaction_lab"'))
      .join('\n')
    expect(
      reimport(withoutRecord, 'claude-code').markers.map((m) => [m.origin, m.summary]),
    ).toEqual([['claude-code-boundary', SUMMARY]])
    // What we read back with our record: our own summary (a summary group), as in the projection.
    const again = reimport(out.text, 'claude-code')
    expect(again.markers).toEqual([])
    expect(again.messages.filter((m) => m.summaryOf).map((m) => m.parts)).toEqual([
      [{ kind: 'text', text: SUMMARY }],
    ])
  })

  it('Codex: a leading summary is a `compacted` line followed by the summary user item', async () => {
    const result = await run(native('codex'), handConfig('assistant', 'first'), fixedSummarizer)
    const out = exportCompactedTranscript(result)
    const lines = out.text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; payload: Record<string, unknown> })
    const at = lines.findIndex((l) => l.type === 'compacted')
    expect(lines[at]?.payload).toMatchObject({ message: SUMMARY })
    expect(Array.isArray(lines[at]?.payload.replacement_history)).toBe(true)
    expect(lines[at + 1]?.payload).toMatchObject({
      type: 'message',
      role: 'user',
      content: [{ type: 'input_text', text: SUMMARY }],
    })
  })

  it('opencode: the summary is an assistant message with summary: true', async () => {
    const result = await run(native('opencode'), handConfig('system', 'first'), fixedSummarizer)
    const out = exportCompactedTranscript(result)
    const doc = JSON.parse(out.text) as {
      messages: { info: { role: string; summary?: boolean }; parts: { text?: string }[] }[]
    }
    const summary = doc.messages.find((m) => m.parts.some((p) => p.text === SUMMARY))
    expect(summary?.info).toMatchObject({ role: 'assistant', summary: true })
  })

  it('Anthropic: a leading summary is a compaction block, a later one a user message', async () => {
    const result = await run(
      native('anthropic-messages'),
      handConfig('system', 'first'),
      fixedSummarizer,
    )
    const body = JSON.parse(exportCompactedTranscript(result).text) as {
      messages: { role: string; content: unknown }[]
    }
    expect(body.messages.every((m) => m.role === 'user' || m.role === 'assistant')).toBe(true)
    expect(JSON.stringify(body.messages)).toContain(
      JSON.stringify({ type: 'compaction', content: SUMMARY }),
    )
    expect(SUMMARY_PLACEMENT['anthropic-messages']('system', false).role).toBe('user')
  })

  it('refuses to write another format than the source', async () => {
    const result = await run(native('openai-chat'), handConfig('system', 'first'), fixedSummarizer)
    expect(() => exportCompactedTranscript(result, { format: 'anthropic-messages' })).toThrow(
      /only its source format/,
    )
    expect(exportCompactedTranscript(result, { format: 'openai-chat' }).extension).toBe('.json')
  })

  it('never mutates the result it exports', async () => {
    const result = await run(native('claude-code'), handConfig('user', 'first'), fixedSummarizer)
    const before = JSON.stringify(result.projection)
    exportCompactedTranscript(result)
    expect(JSON.stringify(result.projection)).toBe(before)
  })
})

// ---------------------------------------------------------------------------------------------
// The shared corpus: every preset, scaled so it fires, on a few files per format.

const CORPUS = resolve(__dirname, '../../../shared/corpus')
const corpusPresent = existsSync(CORPUS)
if (!corpusPresent)
  console.log(
    `transcript export corpus tests skipped: ${CORPUS} not found (the corpus is optional)`,
  )

const PER_FORMAT = 3
function corpusSample(): { format: FormatId; name: string; path: string }[] {
  if (!corpusPresent) return []
  const out: { format: FormatId; name: string; path: string }[] = []
  for (const folder of readdirSync(CORPUS).sort()) {
    const dir = join(CORPUS, folder)
    if (!statSync(dir).isDirectory() || !isFormatId(folder)) continue
    const names = readdirSync(dir)
      .sort()
      .filter((n) => statSync(join(dir, n)).size < 2_000_000) // aider's 4 MB history is slow
    for (const name of names.slice(0, PER_FORMAT))
      out.push({ format: folder, name, path: join(dir, name) })
  }
  return out
}

describe.skipIf(!corpusPresent)('corpus: every preset, export → import = projection', () => {
  const deps = { counter: estimateCounter, summarizer: createDigestSummarizer() }
  for (const file of corpusSample()) {
    it(`${file.format}/${file.name}`, async () => {
      const outcome = importTranscript(readFileSync(file.path, 'utf8'), { fileName: file.name })
      if (NOT_CONVERSATIONS.has(`${file.format}/${file.name}`)) {
        expect(outcome.result.ok).toBe(false)
        return
      }
      expect(outcome.result.ok, JSON.stringify(outcome.result).slice(0, 300)).toBe(true)
      if (!outcome.result.ok) return
      const conversation = outcome.result.conversation
      const prepared = prepare(conversation, estimateCounter)
      const total =
        prepared.staticTokens +
        prepared.systemTokens +
        prepared.messageTokens.reduce((a, b) => a + b, 0)
      for (const id of PRESET_IDS) {
        const config = toEngineConfig(presetConfig(id))
        const usable =
          config.window.contextTokens - config.window.reservedOutput - config.window.buffer
        const result = await compact(
          prepared,
          scale(config, (0.4 * total) / usable),
          deps,
          STRATEGY_REGISTRY,
        )
        const { out, again } = roundTrip(result)
        const inserted = out.conversation.messages.filter((m) => m.summaryOf).length
        // Upstream markers can only go where their record was excluded (Responses compaction
        // items); new ones come only from summaries written as native compaction records.
        expect(again.markers.length, id).toBeLessThanOrEqual(
          result.projection.markers.length + inserted,
        )
      }
    })
  }
})
