import { describe, expect, it } from 'vitest'
import { sniff } from '../sniff.ts'
import { importer } from './index.ts'
import { corpusFiles, importCorpusFile, roundTrip } from '../testing-corpus.mts'
import { rl, event, msg, jsonl } from './fixtures.mts'

describe('codex bad input', () => {
  it('loads the rest when the last line is truncated, with a positioned warning', () => {
    const text = jsonl(msg('user', 'a'), msg('assistant', 'b')) + '{"timestamp":"x","type":"respo'
    const r = importer.parse(sniff(text))
    expect(r.ok).toBe(true)
    if (!r.ok) return
    expect(r.conversation.messages).toHaveLength(2)
    expect(r.warnings[0]).toMatchObject({ line: 3 })
    expect(r.warnings[0]?.message).toMatch(/last line/)
  })
  it('warns about non-object lines and items without a type', () => {
    const r = importer.parse(
      sniff(jsonl(msg('user', 'a'), [1, 2], rl('response_item', { role: 'user' }))),
    )
    expect(r.ok && r.warnings.map((w) => [w.line, w.offset > 0])).toEqual([
      [2, true],
      [3, true],
    ])
    expect(r.ok && r.warnings[1]?.message).toMatch(/expected `payload` to be a Responses item/)
  })
  it('fails with a position and what was expected when nothing usable is left', () => {
    const none = importer.parse(
      sniff(jsonl(rl('session_meta', { id: 's' }), event({ type: 'token_count', info: null }))),
    )
    expect(none.ok).toBe(false)
    if (!none.ok) expect(none.error.message).toMatch(/expected Codex `response_item` lines/)
    const bad = importer.parse(sniff('{"broken": '))
    expect(bad.ok).toBe(false)
    if (!bad.ok) expect(bad.error).toMatchObject({ kind: 'parse_error', line: 1 })
  })
})

const corpus = corpusFiles('codex', { filter: (name) => name.endsWith('.jsonl') })
if (!corpus.present) console.log(corpus.skipMessage)

const CALLS = new Set(['function_call', 'custom_tool_call', 'local_shell_call', 'web_search_call'])
const OUTPUTS = new Set(['function_call_output', 'custom_tool_call_output'])

describe('codex corpus', () => {
  for (const f of corpus.files)
    it(f.name, () => {
      const { name: file, text } = f
      const { conversation: c, warnings } = importCorpusFile(importer, f, { fileName: file })
      expect(c.messages.length).toBeGreaterThan(0)
      const parts = c.messages.flatMap((m) => m.parts)
      const calls = parts.filter((p) => p.kind === 'tool_call').length
      const results = parts.filter((p) => p.kind === 'tool_result').length
      let fileCalls = 0
      let fileOutputs = 0
      let compacted = 0
      for (const l of text.split('\n')) {
        if (!l.trim()) continue
        const v = JSON.parse(l) as { type?: string; payload?: { type?: string } }
        if (v.type === 'compacted') compacted++
        if (v.type !== 'response_item') continue
        if (CALLS.has(v.payload?.type ?? '')) fileCalls++
        if (OUTPUTS.has(v.payload?.type ?? '')) fileOutputs++
      }
      expect(calls).toBe(fileCalls)
      expect(results).toBe(fileOutputs)
      expect(c.markers.filter((m) => m.origin === 'codex-compacted')).toHaveLength(compacted)
      console.log(
        `${file}: ${c.messages.length} messages, ${calls} calls, ${results} results, ${warnings.length} warnings, ${c.markers.length} markers`,
      )
      roundTrip(importer, c)
      if (file.startsWith('localpush__')) {
        expect(c.markers.length).toBeGreaterThanOrEqual(1)
        expect(c.meta.contextWindow).toBe(258400)
        expect(c.messages.filter((m) => m.usage).length).toBeGreaterThan(100)
      }
      if (file.startsWith('claude-code-transcripts__')) {
        expect(c.messages.map((m) => m.injected ?? false)).toEqual([true, true, false])
        expect(c.system[0]?.text).toMatch(/^## Skills/)
      }
    })
})
