import { mkdtempSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { generateFleet } from '../../scripts/sample/fleet-fixtures.ts'
import type { FleetReport } from '../fleet/types.ts'
import type { CompactReport } from './compact.ts'
import { main } from './main.ts'

function capture() {
  const out: string[] = []
  const err: string[] = []
  return {
    io: { stdout: (t: string) => out.push(t), stderr: (t: string) => err.push(t) },
    out,
    err,
  }
}

const dir = mkdtempSync(join(tmpdir(), 'cl-evaluate-'))
const fleetDir = join(dir, 'fleet')
mkdirSync(join(fleetDir, 'nested'), { recursive: true })
const fixtures = generateFleet(6, 3, { min: 20, max: 160 })
const paths = fixtures.map((f, k) => {
  // Half the files one folder down: folders are walked recursively.
  const path = join(fleetDir, k % 2 === 0 ? 'nested' : '', f.name)
  writeFileSync(path, f.text)
  return path
})
const badPath = join(fleetDir, 'broken.json')
writeFileSync(badPath, '{"messages": [')
const read = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T

async function evaluate(args: string[]): Promise<{ code: number; err: string; out: string }> {
  const c = capture()
  const code = await main(['evaluate', ...args], c.io)
  return { code, err: c.err.join(''), out: c.out.join('') }
}

describe('compaction-lab evaluate', () => {
  it('gives one row per conversation with compact’s figures, and lists the failed file after the rest', async () => {
    const out = join(dir, 'whole.json')
    const csv = join(dir, 'rows.csv')
    const run = await evaluate([
      fleetDir,
      '--preset',
      'recommended',
      '--jobs',
      '1',
      '--out',
      out,
      '--csv',
      csv,
    ])
    expect(run.code).toBe(1)
    expect(run.err).toContain(`1 failed:\n  ${badPath}: line`)
    const report = read<FleetReport>(out)
    expect(report.rows.map((r) => r.name)).toEqual([...paths].sort())
    expect(report.failures.map((f) => f.name)).toEqual([badPath])
    expect(report.files).toBe(7)
    for (const row of report.rows) {
      const reportPath = join(dir, 'compact-report.json')
      const c = capture()
      const code = await main(
        [
          'compact',
          row.name,
          '--preset',
          'recommended',
          '--out',
          join(dir, 'x.out'),
          '--report',
          reportPath,
        ],
        c.io,
      )
      expect(code).toBe(0)
      const compact = read<CompactReport>(reportPath)
      expect(row.format).toBe(compact.format)
      expect(row.tokens.last).toMatchObject({
        before: compact.tokens.before,
        after: compact.tokens.after,
        saved: compact.tokens.saved,
      })
      expect(row.cost.before).toBe(compact.cost?.before ?? null)
      expect(row.cost.after).toBe(compact.cost?.after ?? null)
      expect(row.invariantsOk).toBe(compact.invariants.ok)
      expect(row.usedLater).toBe(compact.risk.usedLater)
      // compact prints its change count on stderr: `(N changes, invariants …`.
      expect(c.err.join('')).toContain(`(${row.changes} changes,`)
    }
    const lines = readFileSync(csv, 'utf8').split('\r\n')
    expect(
      lines[0]?.startsWith('name,item,itemName,format,model,messages,calls,tokensBefore'),
    ).toBe(true)
    expect(lines).toHaveLength(report.rows.length + 2)
  })

  it('gives the same report with a pool of two worker threads', async () => {
    const one = join(dir, 'one.json')
    const two = join(dir, 'two.json')
    await evaluate([...paths, '--preset', 'recommended', '--jobs', '1', '--out', one])
    const run = await evaluate([...paths, '--preset', 'recommended', '--jobs', '2', '--out', two])
    expect(run.code).toBe(0)
    expect(run.err).toContain('2 jobs')
    expect(readFileSync(two, 'utf8')).toBe(readFileSync(one, 'utf8'))
  })

  it('--shard 1/3, 2/3, 3/3 merged equals the whole run', async () => {
    const whole = join(dir, 'whole-ok.json')
    expect(
      (await evaluate([...paths, '--preset', 'recommended', '--jobs', '1', '--out', whole])).code,
    ).toBe(0)
    const partials: string[] = []
    for (const i of [1, 2, 3]) {
      const p = join(dir, `part-${i}.json`)
      const run = await evaluate([
        ...paths,
        '--preset',
        'recommended',
        '--jobs',
        '1',
        '--shard',
        `${i}/3`,
        '--out',
        p,
      ])
      expect(run.code).toBe(0)
      expect(read<{ rows: unknown[] }>(p).rows).toHaveLength(2)
      partials.push(p)
    }
    const merged = join(dir, 'merged.json')
    const c = capture()
    expect(await main(['merge', ...partials.reverse(), '--out', merged], c.io)).toBe(0)
    expect(readFileSync(merged, 'utf8')).toBe(readFileSync(whole, 'utf8'))
    // A missing shard is refused, naming it.
    const c2 = capture()
    expect(await main(['merge', partials[0] as string, partials[1] as string], c2.io)).toBe(1)
    expect(c2.err.join('')).toContain('missing shard')
  })

  it('refuses bad usage with exit 2 and an invalid config with exit 1', async () => {
    expect((await evaluate([fleetDir])).code).toBe(2)
    expect((await evaluate([fleetDir, '--preset', 'recommended', '--shard', '4/3'])).code).toBe(2)
    expect((await evaluate([fleetDir, '--preset', 'recommended', '--jobs', '0'])).code).toBe(2)
    const config = join(dir, 'bad-config.json')
    writeFileSync(config, '{"version": 1, "pipeline": "nope"}')
    const run = await evaluate([fleetDir, '--config', config])
    expect(run.code).toBe(1)
    expect(run.err).toContain('invalid config')
  })

  it('counts a missing path as a failure and still evaluates the rest', async () => {
    const run = await evaluate([
      paths[0] as string,
      join(dir, 'nope'),
      '--preset',
      'recommended',
      '--jobs',
      '1',
    ])
    expect(run.code).toBe(1)
    const report = JSON.parse(run.out) as FleetReport
    expect(report.rows).toHaveLength(1)
    expect(report.failures).toEqual([
      { name: join(dir, 'nope'), message: 'cannot read: no such file or folder' },
    ])
  })
})
