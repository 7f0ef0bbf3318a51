import { describe, expect, it } from 'vitest'
import { sniff } from '../sniff.ts'
import { importer } from './index.ts'
import { corpusFiles, importCorpusFile, roundTrip } from '../testing-corpus.mts'
import { jsonl, u1, a1, a5 } from './fixtures.mts'

describe('claude-code bad input', () => {
  it('loads the rest when the last line is truncated, with a positioned warning', () => {
    const text = jsonl(u1, a1) + '{"type":"user","message":{"role":"us'
    const r = importer.parse(sniff(text))
    expect(r.ok).toBe(true)
    if (!r.ok) return
    expect(r.conversation.messages).toHaveLength(2)
    expect(r.warnings[0]).toMatchObject({ line: 3 })
    expect(r.warnings[0]?.offset).toBeGreaterThan(text.lastIndexOf('\n', text.length - 5))
    expect(r.warnings[0]?.message).toMatch(/last line/)
  })
  it('warns about lines that are not objects or lack a message, and keeps them', () => {
    const text = jsonl(u1, 'just a string', { type: 'assistant', uuid: 'z' }, a5)
    const r = importer.parse(sniff(text))
    expect(r.ok && r.warnings.map((w) => w.line)).toEqual([2, 3])
    expect(r.ok && r.warnings[1]?.message).toMatch(/expected `message` to be an object/)
    if (r.ok) expect(importer.serialize(r.conversation).split('\n')[1]).toBe('"just a string"')
  })
  it('fails with a position and what was expected when nothing usable is left', () => {
    const none = importer.parse(sniff(jsonl({ type: 'summary', summary: 't', leafUuid: 'x' })))
    expect(none.ok).toBe(false)
    if (!none.ok)
      expect(none.error.message).toMatch(/expected Claude Code `user`\/`assistant` lines/)
    const text = importer.parse(sniff('not json at all'))
    expect(text.ok).toBe(false)
    if (!text.ok) expect(text.error).toMatchObject({ kind: 'parse_error', line: 1, offset: 0 })
  })
})

const corpus = corpusFiles('claude-code', { filter: (name) => name.endsWith('.jsonl') })
if (!corpus.present) console.log(corpus.skipMessage)

describe('claude-code corpus', () => {
  for (const f of corpus.files)
    it(f.name, () => {
      const { name: file, text } = f
      const { conversation: c, warnings } = importCorpusFile(importer, f, { fileName: file })
      expect(c.messages.length).toBeGreaterThan(0)
      const parts = c.messages.flatMap((m) => m.parts)
      const calls = parts.filter((p) => p.kind === 'tool_call').length
      const results = parts.filter((p) => p.kind === 'tool_result').length
      // Independent count straight from the file: blocks and distinct assistant message ids.
      let uses = 0
      let resultBlocks = 0
      const ids = new Set<string>()
      for (const l of text.split('\n')) {
        if (!l.trim()) continue
        const v = JSON.parse(l) as { type?: string; message?: { id?: string; content?: unknown } }
        const content = Array.isArray(v.message?.content)
          ? (v.message.content as { type?: string }[])
          : []
        uses += content.filter((b) => b.type === 'tool_use').length
        resultBlocks += content.filter((b) => b.type === 'tool_result').length
        if (v.type === 'assistant' && v.message?.id) ids.add(v.message.id)
      }
      expect(calls).toBe(uses)
      expect(results).toBe(resultBlocks)
      expect(c.messages.filter((m) => m.role === 'assistant')).toHaveLength(ids.size)
      console.log(
        `${file}: ${c.messages.length} messages, ${calls} calls, ${results} results, ${warnings.length} warnings, ${c.markers.length} markers`,
      )
      roundTrip(importer, c)

      if (file.startsWith('happy-cli__')) {
        expect(c.markers.map((m) => m.origin)).toEqual([
          'claude-code-summary',
          'claude-code-summary',
        ])
        for (const m of c.markers) expect(c.messages[m.beforeIndex]?.injected).toBe(true)
      }
      if (file.startsWith('codemie__session-9eda1058')) {
        expect(c.meta.title).toBe('Cleared conversation history')
        expect(c.markers).toEqual([])
      }
      if (file.includes('agent-a485154')) {
        expect(c.messages.every((m) => m.sidechain === 'a485154')).toBe(true)
      }
    })
})
