import { describe, expect, it } from 'vitest'
import { run } from '../../engine/strategies/supersede-stale-results/fixtures.ts'
import { commandText } from '../../engine/strategies/supersede-stale-results/shell.ts'
import { corpusFiles, importCorpusFile } from '../testing-corpus.mts'
import { importer } from './index.ts'
import { detailOf } from '../../engine/compaction/sentence.ts'

/**
 * Issue 12 on real Codex rollouts: `sed -n`/`cat` reads of a file that a later read covers are
 * superseded in the default (fixed) mode, and the decision names the file. Counts per file are
 * printed so a change in coverage shows in the test log.
 */
const corpus = corpusFiles('codex', { filter: (name) => name.endsWith('.jsonl') })
if (!corpus.present) console.warn(corpus.skipMessage)

describe.skipIf(!corpus.present)('codex corpus: shell reads are superseded', () => {
  let total = 0
  for (const file of corpus.files)
    it(file.name, async () => {
      const { conversation } = importCorpusFile(importer, file)
      // The shell commands in call order, to check that a superseded read is read again later.
      const commands: string[] = []
      for (const m of conversation.messages)
        for (const p of m.parts)
          if (p.kind === 'tool_call' && p.args && typeof p.args === 'object') {
            const a = p.args as Readonly<Record<string, unknown>>
            const line = commandText(a['cmd'] ?? a['command'])
            if (line) commands.push(line)
          }
      const r = await run(conversation)
      const shell = r.decisions.filter(
        (d) =>
          d.reason === 'superseded' && /`(exec_command|shell)` output for \//.test(detailOf(d)),
      )
      const perFile = new Map<string, number>()
      for (const d of shell) {
        const path = /output for (\/.+?) \((?:lines|last)/.exec(detailOf(d))?.[1]
        expect(path, detailOf(d)).toBeDefined()
        perFile.set(path as string, (perFile.get(path as string) ?? 0) + 1)
        // The file is read by at least two commands (the stale read and a newer one).
        const base = (path as string).split('/').pop() as string
        expect(commands.filter((c) => c.includes(base)).length, detailOf(d)).toBeGreaterThan(1)
      }
      total += shell.length
      console.warn(
        `${file.name}: ${shell.length} shell read(s) superseded` +
          [...perFile].map(([p, n]) => `\n  ${n} × ${p}`).join(''),
      )
    })

  it('at least one stale sed/cat read is superseded over the codex corpus', () => {
    expect(total).toBeGreaterThan(0)
  })
})
