import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { FleetReport } from '../fleet/types.ts'
import type { CompactReport } from './compact.ts'
import { listFiles } from './fleet-files.ts'
import { main } from './main.ts'

const CORPUS = resolve(import.meta.dirname, '../../../shared/corpus')
const present = existsSync(CORPUS)
if (!present) console.warn(`evaluate.corpus.test: skipped, ${CORPUS} is absent`)
// The format folders (the corpus root also holds SOURCES.md, which is not a transcript).
const folders = present
  ? readdirSync(CORPUS, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => join(CORPUS, d.name))
  : []

function capture() {
  const out: string[] = []
  const err: string[] = []
  return {
    io: { stdout: (t: string) => out.push(t), stderr: (t: string) => err.push(t) },
    out,
    err,
  }
}
const dir = mkdtempSync(join(tmpdir(), 'cl-evaluate-corpus-'))
const read = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T

describe.skipIf(!present)('evaluate over the corpus', () => {
  const whole = join(dir, 'whole.json')

  it('gives one row per conversation, with the figures compact gives each file alone', async () => {
    const c = capture()
    const code = await main(
      ['evaluate', ...folders, '--preset', 'recommended', '--jobs', '2', '--out', whole],
      c.io,
    )
    const report = read<FleetReport>(whole)
    expect(code).toBe(report.failures.length > 0 ? 1 : 0)
    const { files } = await listFiles(folders)
    expect(report.files).toBe(files.length)
    const refused: string[] = []
    let compared = 0
    for (const file of files) {
      // A multi-item file gives one row per item (inspect's listing); items 0, 1 and the last
      // are compared with `compact --item N` (every one of aider's 984 would take minutes).
      const ic = capture()
      await main(['inspect', file, '--json', '--tokenizer', 'estimate'], ic.io)
      const listed = ic.out.length > 0 ? (JSON.parse(ic.out.join('')) as { items?: unknown[] }) : {}
      const count = listed.items?.length ?? 0
      const rows = report.rows.filter((r) => r.name === file)
      if (count > 0) expect(rows, file).toHaveLength(count)
      const picks = count > 0 ? [...new Set([0, Math.min(1, count - 1), count - 1])] : [null]
      for (const item of picks) {
        const reportPath = join(dir, 'compact.json')
        const cc = capture()
        const itemArgs = item === null ? [] : ['--item', String(item)]
        const status = await main(
          ['compact', file, '--preset', 'recommended', '--out', join(dir, 'out')]
            .concat(['--report', reportPath])
            .concat(itemArgs),
          cc.io,
        )
        if (status !== 0) {
          refused.push(file)
          continue
        }
        compared++
        const compact = read<CompactReport>(reportPath)
        if (item === null) expect(rows, file).toHaveLength(1)
        const row = item === null ? rows[0] : rows.find((r) => r.item === item)
        const what = `${file}${item === null ? '' : ` item ${item}`}`
        expect(row?.format, what).toBe(compact.format)
        expect(row?.tokens.last, what).toMatchObject({
          before: compact.tokens.before,
          after: compact.tokens.after,
        })
        expect(row?.cost.before ?? null, what).toBe(compact.cost?.before ?? null)
        expect(row?.cost.after ?? null, what).toBe(compact.cost?.after ?? null)
        expect(row?.invariantsOk, what).toBe(compact.invariants.ok)
        expect(row?.usedLater, what).toBe(compact.risk.usedLater)
        expect(cc.err.join(''), what).toContain(`(${row?.changes} changes,`)
      }
    }
    console.warn(
      `evaluate.corpus.test: ${report.rows.length} rows; ${compared} compared with compact`,
    )
    // The files evaluate lists as failed are exactly those compact refuses on their own.
    expect(report.failures.map((f) => f.name)).toEqual(refused)
  }, 900_000)

  it('--shard 1/3, 2/3, 3/3 merged equals the whole run', async () => {
    const partials: string[] = []
    for (const i of [1, 2, 3]) {
      const p = join(dir, `part-${i}.json`)
      await main(
        [
          'evaluate',
          ...folders,
          '--preset',
          'recommended',
          '--jobs',
          '1',
          '--shard',
          `${i}/3`,
          '--out',
          p,
        ],
        capture().io,
      )
      partials.push(p)
    }
    const merged = join(dir, 'merged.json')
    expect(await main(['merge', ...partials, '--out', merged], capture().io)).toBe(0)
    expect(readFileSync(merged, 'utf8')).toBe(readFileSync(whole, 'utf8'))
  }, 900_000)
})
