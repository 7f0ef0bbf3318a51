import { spawnSync } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { main } from './main.ts'
import { writeOutputsAtomically } from './write.ts'

/**
 * Issue 10 item 5: an unwritable `--out`/`--report` crashed with a raw ENOENT stack, and with a
 * bad `--report` the `--out` file had already been written. Now: exit 1, one line naming the
 * path, and no output at all unless every output can be written.
 */
function capture() {
  const out: string[] = []
  const err: string[] = []
  return {
    io: { stdout: (t: string) => out.push(t), stderr: (t: string) => err.push(t) },
    out,
    err,
  }
}

const dir = mkdtempSync(join(tmpdir(), 'cl-outputs-'))
const chat = join(dir, 'chat.json')
writeFileSync(
  chat,
  JSON.stringify({
    model: 'gpt-4o',
    messages: [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'hello' },
    ],
  }),
)
const missing = join(dir, 'no-such-dir', 'x.json')

describe('compact: outputs are all written or none', () => {
  it('an unwritable --report: exit 1, the path named, and --out not written', async () => {
    const c = capture()
    const out = join(dir, 'out-1.json')
    const code = await main(
      ['compact', chat, '--preset', 'recommended', '--out', out, '--report', missing],
      c.io,
    )
    expect(code).toBe(1)
    expect(c.err.join('')).toBe(
      `--report ${missing}: cannot write: the directory does not exist (ENOENT); nothing was written\n`,
    )
    expect(existsSync(out)).toBe(false)
    expect(c.out).toEqual([]) // not even stdout
  })

  it('an unwritable --out: exit 1, and the report and CSV are not written either', async () => {
    const c = capture()
    const report = join(dir, 'report-2.json')
    const csv = join(dir, 'report-2.csv')
    const args = ['compact', chat, '--preset', 'lip', '--out', missing, '--report', report]
    expect(await main([...args, '--report-csv', csv], c.io)).toBe(1)
    expect(c.err.join('')).toMatch(
      new RegExp(`^--out ${missing.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: cannot write`),
    )
    expect(existsSync(report) || existsSync(csv)).toBe(false)
  })

  it('a directory in the way of --out is named as such', async () => {
    const c = capture()
    const target = join(dir, 'a-directory')
    mkdirSync(target)
    expect(await main(['compact', chat, '--preset', 'lip', '--out', target], c.io)).toBe(1)
    expect(c.err.join('')).toMatch(/--out .*a-directory: is a directory; nothing was written/)
  })

  it('one path for two outputs is a usage error', async () => {
    const c = capture()
    const same = join(dir, 'same.json')
    expect(
      await main(['compact', chat, '--preset', 'lip', '--out', same, '--report', same], c.io),
    ).toBe(2)
    expect(c.err.join('')).toMatch(/--out and --report name the same file/)
  })

  it('leaves no temporary files behind, after success and after failure', async () => {
    const sub = mkdtempSync(join(dir, 'clean-'))
    const ok = await writeOutputsAtomically([
      { flag: '--out', path: join(sub, 'a.json'), content: 'A' },
      { flag: '--report', path: join(sub, 'b.json'), content: 'B' },
    ])
    expect(ok).toEqual({ ok: true })
    expect(readdirSync(sub).sort()).toEqual(['a.json', 'b.json'])
    const failed = await writeOutputsAtomically([
      { flag: '--out', path: join(sub, 'c.json'), content: 'C' },
      { flag: '--report', path: join(sub, 'missing', 'd.json'), content: 'D' },
    ])
    expect(failed.ok).toBe(false)
    expect(readdirSync(sub).sort()).toEqual(['a.json', 'b.json'])
  })

  it.runIf(process.getuid?.() !== 0)(
    'a read-only directory: permission denied, nothing written',
    async () => {
      const ro = mkdtempSync(join(dir, 'ro-'))
      chmodSync(ro, 0o500)
      const r = await writeOutputsAtomically([{ flag: '--out', path: join(ro, 'x'), content: 'x' }])
      expect(r).toMatchObject({ ok: false, message: expect.stringMatching(/permission denied/) })
      chmodSync(ro, 0o700)
    },
  )

  it('the real binary prints one line and no stack', () => {
    const bin = resolve(__dirname, '../../bin/compaction-lab.mjs')
    const r = spawnSync(
      process.execPath,
      [bin, 'compact', chat, '--preset', 'recommended', '--out', missing],
      { encoding: 'utf8' },
    )
    expect(r.status).toBe(1)
    expect(r.stderr.trim().split('\n')).toHaveLength(1)
    expect(r.stderr).not.toMatch(/\n\s+at /)
  })
})

describe('main: an unexpected error is one line and exit 1', () => {
  it('reports the message, not the stack', async () => {
    const c = capture()
    const boom = () => Promise.reject(new RangeError('Maximum call stack size exceeded'))
    expect(await main(['compact', 'x'], c.io, { compact: boom })).toBe(1)
    expect(c.err.join('')).toBe(
      'compaction-lab compact: internal error: Maximum call stack size exceeded\n(set COMPACTION_LAB_DEBUG=1 to see the stack)\n',
    )
  })
})
