import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { buildGroups } from '../engine/groups.ts'
import type { FormatId } from '../engine/model.ts'
import { detectAll, importTranscript, isFormatId, serializeConversation, sniff } from './index.ts'
import { digest } from './testing.ts'

/**
 * Every real transcript in the shared corpus, through the whole import path (SPEC §2): detection
 * must name the corpus folder's format, parsing must yield messages without throwing, every result
 * must be paired or flagged, and serialize → import must keep the conversation.
 */
const CORPUS = resolve(__dirname, '../../../shared/corpus')
const present = existsSync(CORPUS)
if (!present)
  console.log(`corpus tests skipped: ${CORPUS} not found (the shared corpus is optional)`)

/** Real files that are not conversations: they must be recognised and refused clearly. */
const METADATA_ONLY = new Set(['opencode-export-html__t8v6Igr8.session.json'])

function corpusFiles(): { format: FormatId; name: string; path: string }[] {
  if (!present) return []
  const out: { format: FormatId; name: string; path: string }[] = []
  for (const folder of readdirSync(CORPUS).sort()) {
    const dir = join(CORPUS, folder)
    if (!statSync(dir).isDirectory()) continue
    if (!isFormatId(folder)) throw new Error(`corpus folder ${folder} is not a known format id`)
    for (const name of readdirSync(dir).sort())
      out.push({ format: folder, name, path: join(dir, name) })
  }
  return out
}

describe.skipIf(!present)('shared corpus', () => {
  const files = corpusFiles()
  it('has files to test', () => expect(files.length).toBeGreaterThan(40))

  for (const file of files) {
    it(`${file.format}/${file.name}`, () => {
      const text = readFileSync(file.path, 'utf8')
      const detections = detectAll(sniff(text), { fileName: file.name })
      expect(detections[0]?.format, `detected ${JSON.stringify(detections[0])}`).toBe(file.format)

      const outcome = importTranscript(text, { fileName: file.name })
      if (METADATA_ONLY.has(file.name)) {
        expect(outcome.result.ok).toBe(false)
        if (!outcome.result.ok) expect(outcome.result.error.message).toMatch(/no messages/i)
        return
      }
      if (!outcome.result.ok) throw new Error(JSON.stringify(outcome.result.error))
      const conv = outcome.result.conversation
      expect(conv.messages.length).toBeGreaterThan(0)

      const { pairing } = buildGroups(conv)
      for (const r of pairing.results) {
        expect(r.call >= 0 || r.flag === 'orphan', `result ${r.message}:${r.part}`).toBe(true)
      }

      const again = importTranscript(serializeConversation(conv), { format: file.format })
      if (!again.result.ok)
        throw new Error(`re-import failed: ${JSON.stringify(again.result.error)}`)
      expect(digest(again.result.conversation)).toEqual(digest(conv))
      expect(again.result.conversation.markers.length).toBe(conv.markers.length)

      console.log(
        `${file.format}/${file.name}: ${conv.messages.length} messages, ${pairing.calls.length} calls, ` +
          `${pairing.results.length} results, ${conv.markers.length} markers, ` +
          `${outcome.result.warnings.length} warnings`,
      )
    })
  }

  it('shows Claude Code and Codex compactions as upstream markers, and titles as titles', () => {
    const load = (format: string, name: string) => {
      const outcome = importTranscript(readFileSync(join(CORPUS, format, name), 'utf8'))
      if (!outcome.result.ok) throw new Error(outcome.result.error.message)
      return outcome.result.conversation
    }
    const happy = load('claude-code', 'happy-cli__400429ba-c1e1-4ef5-a7ec-fe40608df53b.jsonl')
    expect(happy.markers.map((m) => m.origin)).toEqual([
      'claude-code-summary',
      'claude-code-summary',
    ])

    const titled = load('claude-code', 'codemie__session-9eda1058.jsonl')
    expect(titled.meta.title).toBeTruthy()
    expect(titled.markers).toHaveLength(0)

    const codex = load(
      'codex',
      'localpush__rollout-2026-02-23T12-54-34-019c8a59-e9dd-71f0-9ae3-4079fe9726a9.jsonl',
    )
    expect(codex.markers.length).toBeGreaterThan(0)
    expect(
      codex.markers.every(
        (m) => m.origin === 'codex-compacted' || m.origin === 'responses-compaction',
      ),
    ).toBe(true)
  })
})
