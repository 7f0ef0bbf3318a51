import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { inspectConversation } from '../src/engine/inspect.ts'
import { estimateCounter } from '../src/engine/tokens/index.ts'
import { importTranscript } from '../src/formats/index.ts'
import type { CountKey } from '../src/ui/testids.ts'
import { expect, test } from './fixtures.ts'

/** Real public transcripts (../shared/corpus, see its SOURCES.md), one per format, by path. */
const CORPUS = join(import.meta.dirname, '..', '..', 'shared', 'corpus')
const FILES = [
  ['codex', 'codemie__rollout-2026-05-11T13-28-45-019e1695-0522-7c83-8b39-0dd379793f80.jsonl'],
  ['anthropic-messages', 'pydantic-ai__anthropic_multiple_parallel_tool_calls.request.json'],
  ['gemini-cli', 'codemie__gemini-cli-session-2025-12-01T21-45-5b959dae.json'],
] as const

// Without the corpus there is nothing to load: say so and define no test (never a hollow one).
const present = existsSync(CORPUS)
if (!present) console.warn(`corpus specs not run: ${CORPUS} is absent`)

test.describe('real transcripts', () => {
  for (const [format, name] of present ? FILES : []) {
    test(`${format}: ${name} loads by file with the counts the importer gives`, async ({ app }) => {
      const path = join(CORPUS, format, name)
      // The expected figures come from the same importer and inspector the CLI uses.
      const outcome = importTranscript(readFileSync(path, 'utf8'), { fileName: name })
      if (!outcome.result.ok) throw new Error(outcome.result.error.message)
      const report = inspectConversation(outcome.result.conversation, estimateCounter)
      const expected: [CountKey, number][] = [
        ['messages', report.messages],
        ['turns', report.turns],
        ['groups', report.groups.total],
        ['tool-calls', report.toolCalls],
        ['tool-results', report.toolResults],
        ['orphans', report.orphans],
        ['pending', report.pending],
      ]
      expect(report.messages).toBeGreaterThan(0)

      await app.open()
      await app.expectLoaded('claude-code')
      await app.pickFiles([path])
      await app.expectLoaded(format)
      await expect(app.sourceLine).toContainText(name)
      for (const [key, value] of expected) {
        await expect(app.count(key), key).toHaveAttribute('data-value', String(value))
      }
      await app.expectExactTotal()
    })
  }
})
