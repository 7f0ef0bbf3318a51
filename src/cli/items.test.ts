import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { aiderFile, tauBenchFile } from '../formats/items.testing.ts'
import type { InspectJson } from './inspect.ts'
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

const dir = mkdtempSync(join(tmpdir(), 'cl-items-'))
function file(name: string, text: string): string {
  const path = join(dir, name)
  writeFileSync(path, text)
  return path
}

describe('cli: multi-item files', () => {
  const tau = file('tau.json', tauBenchFile(7))

  it('inspect --json lists items[] with name, messages and tokens', async () => {
    const c = capture()
    expect(await main(['inspect', tau, '--json', '--tokenizer', 'estimate'], c.io)).toBe(0)
    const json = JSON.parse(c.out.join('')) as InspectJson
    expect(json.itemsKind).toBe('tau-bench')
    expect(json.item).toBeNull()
    expect(json.items).toHaveLength(7)
    expect(json.items[3]).toMatchObject({
      index: 3,
      name: 'task 3 · trial 0 · reward 1',
      messages: 5,
    })
    expect(json.items[3]?.tokens).toBeGreaterThan(0)
  })

  it('inspect --item N reports that item (its own message count)', async () => {
    const c = capture()
    expect(
      await main(['inspect', tau, '--item', '5', '--json', '--tokenizer', 'estimate'], c.io),
    ).toBe(0)
    const json = JSON.parse(c.out.join('')) as InspectJson
    expect(json.item).toBe(5)
    expect(json.messages).toBe(7)
    const human = capture()
    expect(await main(['inspect', tau, '--item', '5', '--tokenizer', 'estimate'], human.io)).toBe(0)
    expect(human.out.join('')).toMatch(
      /items {9}7 conversations in the file \(tau-bench\); this is item 5/,
    )
  })

  it('compact --item N writes only that item; a bad --item is a usage error or an input error', async () => {
    const out = join(dir, 'out.json')
    const c = capture()
    expect(
      await main(['compact', tau, '--item', '2', '--preset', 'recommended', '--out', out], c.io),
    ).toBe(0)
    const written = JSON.parse(readFileSync(out, 'utf8')) as { task_id: number }[]
    expect(written.map((r) => r.task_id)).toEqual([2])
    expect(c.err.join('')).toMatch(/\(item 2\): openai-chat/)
    const bad = capture()
    expect(await main(['compact', tau, '--item', 'x', '--preset', 'recommended'], bad.io)).toBe(2)
    const range = capture()
    expect(await main(['compact', tau, '--item', '9', '--preset', 'recommended'], range.io)).toBe(1)
    expect(range.err.join('')).toMatch(/item 9 does not exist: the file holds 7 items \(0 to 6\)/)
  })

  it('aider: the empty session is a warning in inspect, and every session opens', async () => {
    const a = file('.aider.chat.history.md', aiderFile)
    const c = capture()
    expect(await main(['inspect', a, '--json', '--tokenizer', 'estimate'], c.io)).toBe(0)
    const json = JSON.parse(c.out.join('')) as InspectJson
    expect(json.items.map((i) => i.messages)).toEqual([3, 4])
    expect(json.warnings.some((w) => /is empty/.test(w.message))).toBe(true)
    const first = capture()
    expect(
      await main(['inspect', a, '--item', '0', '--json', '--tokenizer', 'estimate'], first.io),
    ).toBe(0)
    expect((JSON.parse(first.out.join('')) as InspectJson).messages).toBe(3)
  })
})
