import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { main } from './main.ts'

/** Issue 10 item 7 through the CLI: bytes in, clear messages out. */
function capture() {
  const out: string[] = []
  const err: string[] = []
  return {
    io: { stdout: (t: string) => out.push(t), stderr: (t: string) => err.push(t) },
    out,
    err,
  }
}
const dir = mkdtempSync(join(tmpdir(), 'cl-inputs-'))
const write = (name: string, data: Uint8Array | string) => {
  const path = join(dir, name)
  writeFileSync(path, data)
  return path
}

describe('CLI input files', () => {
  it('inspect: invalid UTF-8 is a warning with its byte offset, and the file loads', async () => {
    const head = '{"model":"gpt-4o","messages":[{"role":"user","content":"caf'
    const bytes = Buffer.concat([
      Buffer.from(head),
      Buffer.from([0xe9]),
      Buffer.from('"},{"role":"assistant","content":"ok"}]}'),
    ])
    const c = capture()
    expect(await main(['inspect', write('latin1.json', bytes), '--json'], c.io)).toBe(0)
    const report = JSON.parse(c.out.join('')) as { warnings: { message: string }[] }
    expect(report.warnings[0]?.message).toMatch(
      new RegExp(`^invalid UTF-8 at byte offset ${Buffer.byteLength(head)}: `),
    )
  })

  it.each([
    ['empty.json', '', /empty file \(0 bytes\)/],
    ['blank.jsonl', '\n\n  \n', /empty input: only whitespace/],
    [
      'image.png',
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
      /binary file/,
    ],
  ])('inspect and compact refuse %s with its own message (exit 1)', async (name, data, message) => {
    const path = write(name, data)
    for (const argv of [
      ['inspect', path],
      ['compact', path, '--preset', 'recommended'],
    ]) {
      const c = capture()
      expect(await main(argv, c.io)).toBe(1)
      expect(c.err.join('')).toMatch(message)
      expect(c.err.join('')).not.toMatch(/unrecognised/)
    }
  })
})
