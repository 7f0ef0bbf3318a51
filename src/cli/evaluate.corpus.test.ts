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
    for (const file of files) {
      const reportPath = join(dir, 'compact.json')
      const cc = capture()
      const status = await main(
        [
          'compact',
          file,
          '--preset',
          'recommended',
          '--out',
          join(dir, 'out'),
          '--report',
          reportPath,
        ],
        cc.io,
      )
      if (status !== 0) {
        refused.push(file)
        continue
      }
      const compact = read<CompactReport>(reportPath)
      const rows = report.rows.filter((r) => r.name === file)
      expect(rows, file).toHaveLength(1)
      const row = rows[0]
      expect(row?.format, file).toBe(compact.format)
      expect(row?.tokens.last, file).toMatchObject({
        before: compact.tokens.before,
        after: compact.tokens.after,
      })
      expect(row?.cost.before ?? null, file).toBe(compact.cost?.before ?? null)
      expect(row?.cost.after ?? null, file).toBe(compact.cost?.after ?? null)
      expect(row?.invariantsOk, file).toBe(compact.invariants.ok)
      expect(row?.usedLater, file).toBe(compact.risk.usedLater)
      expect(cc.err.join(''), file).toContain(`(${row?.changes} changes,`)
    }
    // The files evaluate lists as failed are exactly those compact refuses on their own.
    expect(report.failures.map((f) => f.name)).toEqual(refused)
    expect(report.rows).toHaveLength(files.length - refused.length)
  })

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
  })
})
