import { maxOf } from '../engine/arrays.ts'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { encode as gptCl100k } from 'gpt-tokenizer/encoding/cl100k_base'
import { encode as gptO200k } from 'gpt-tokenizer/encoding/o200k_base'
import { Tiktoken } from 'js-tiktoken/lite'
import cl100k from 'js-tiktoken/ranks/cl100k_base'
import o200k from 'js-tiktoken/ranks/o200k_base'
import { describe, expect, it } from 'vitest'
import { inspectConversation } from '../engine/inspect.ts'
import type { Conversation } from '../engine/model.ts'
import { BpeCounter, type TextCounter } from '../engine/tokens/index.ts'
import { importTranscript } from './index.ts'

/**
 * Exactness on real text (issue 2): every string our counter is asked to count while pricing a
 * corpus conversation gets the same count from js-tiktoken's `encode(text, [], [])` — special-token
 * strings counted as text. js-tiktoken's merge is quadratic, so a text holding one regex piece
 * longer than LONG_PIECE chars is checked against gpt-tokenizer (also exact) instead.
 */
const CORPUS = resolve(__dirname, '../../../shared/corpus')
const present = existsSync(CORPUS)
if (!present) console.log(`corpus token tests skipped: ${CORPUS} not found`)

const LONG_PIECE = 600

function corpusTexts(): Map<string, string[]> {
  const byFile = new Map<string, string[]>()
  if (!present) return byFile
  for (const folder of readdirSync(CORPUS).sort()) {
    const dir = join(CORPUS, folder)
    if (!statSync(dir).isDirectory()) continue
    for (const name of readdirSync(dir).sort()) {
      const text = readFileSync(join(dir, name), 'utf8')
      const seen = new Set<string>()
      for (const conversation of conversationsIn(text, name)) {
        const recorder: TextCounter = {
          id: 'o200k_base',
          exact: true,
          count: (t) => {
            seen.add(t)
            return 0
          },
        }
        inspectConversation(conversation, recorder)
      }
      byFile.set(`${folder}/${name}`, [...seen])
    }
  }
  return byFile
}

/**
 * Every conversation a file holds: the aider history keeps 1,133 sessions in one file and the
 * importer loads the last one, so each session is imported on its own here to cover them all.
 */
function conversationsIn(text: string, name: string): Conversation[] {
  const chunks = name.endsWith('.md') ? text.split(/(?=^# aider chat started at)/m) : [text]
  const out: Conversation[] = []
  for (const chunk of chunks) {
    const outcome = importTranscript(chunk, { fileName: name })
    if (outcome.result.ok) out.push(outcome.result.conversation)
  }
  return out
}

describe.skipIf(!present)('exact counts on the corpus equal js-tiktoken', () => {
  const texts = corpusTexts()
  for (const { name, data, other } of [
    { name: 'o200k_base', data: o200k, other: gptO200k },
    { name: 'cl100k_base', data: cl100k, other: gptCl100k },
  ] as const) {
    it(name, () => {
      const ours = BpeCounter.fromRankData(data)
      const reference = new Tiktoken(data)
      const pattern = new RegExp(data.pat_str, 'gu')
      let checked = 0
      let viaOther = 0
      let chars = 0
      for (const [file, list] of texts) {
        for (const text of list) {
          const longest = maxOf([0, ...Array.from(text.matchAll(pattern), (m) => m[0].length)])
          const expected =
            longest > LONG_PIECE
              ? (viaOther++, other(text, { disallowedSpecial: new Set() }).length)
              : reference.encode(text, [], []).length
          expect(ours.count(text), `${file}: ${JSON.stringify(text.slice(0, 80))}`).toBe(expected)
          checked++
          chars += text.length
        }
      }
      console.log(
        `${name}: ${checked} distinct texts (${(chars / 1e6).toFixed(2)} M chars) from ${texts.size} files equal; ` +
          `${viaOther} with a piece over ${LONG_PIECE} chars checked against gpt-tokenizer`,
      )
      expect(checked).toBeGreaterThan(1000)
    })
  }
})
