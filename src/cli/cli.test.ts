import { spawnSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
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

const dir = mkdtempSync(join(tmpdir(), 'cl-cli-'))
function file(name: string, text: string): string {
  const path = join(dir, name)
  writeFileSync(path, text)
  return path
}

const chat = JSON.stringify({
  model: 'gpt-4o',
  messages: [
    { role: 'system', content: 'You are terse.' },
    { role: 'user', content: 'Weather in Oslo and Rome?' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [
        {
          id: 'call_a',
          type: 'function',
          function: { name: 'weather', arguments: '{"city":"Oslo"}' },
        },
        {
          id: 'call_b',
          type: 'function',
          function: { name: 'weather', arguments: '{"city":"Rome"}' },
        },
      ],
    },
    { role: 'tool', tool_call_id: 'call_b', content: '21C' },
    { role: 'tool', tool_call_id: 'call_ghost', content: 'orphan' },
    { role: 'assistant', content: 'Rome 21C; Oslo pending.' },
  ],
})

describe('compaction-lab inspect', () => {
  it('reports format, counts, orphans, pending and tokens as JSON', async () => {
    const c = capture()
    const code = await main(['inspect', file('chat.json', chat), '--json'], c.io)
    expect(code).toBe(0)
    const r = JSON.parse(c.out.join('')) as InspectJson
    expect(r.format).toBe('openai-chat')
    expect(r.messages).toBe(6)
    expect(r.toolCalls).toBe(2)
    expect(r.toolResults).toBe(2)
    expect(r.orphans).toBe(1)
    expect(r.pending).toBe(1)
    expect(r.groups.tool_call).toBeGreaterThanOrEqual(1)
    expect(r.tokens.tokenizer).toBe('o200k_base')
    expect(r.tokens.exact).toBe(true)
    expect(r.tokens.total).toBe(Object.values(r.tokens.byCategory).reduce((a, b) => a + b, 0))
    expect(r.tokens.byCategory.tool_calls).toBeGreaterThan(0)
    expect(r.warnings).toEqual([])
  })

  it('honours --tokenizer estimate and cl100k_base', async () => {
    const a = capture()
    await main(['inspect', file('c2.json', chat), '--json', '--tokenizer', 'estimate'], a.io)
    expect((JSON.parse(a.out.join('')) as InspectJson).tokens.exact).toBe(false)
    const b = capture()
    await main(['inspect', file('c3.json', chat), '--json', '--tokenizer=cl100k_base'], b.io)
    expect((JSON.parse(b.out.join('')) as InspectJson).tokens.tokenizer).toBe('cl100k_base')
  })

  it('prints a readable report without --json', async () => {
    const c = capture()
    expect(await main(['inspect', file('c4.json', chat)], c.io)).toBe(0)
    expect(c.out.join('')).toMatch(/format\s+openai-chat/)
  })

  it('exits 1 with line and offset on broken input', async () => {
    const c = capture()
    const code = await main(
      ['inspect', file('broken.json', '{"messages": [ {"role": "user", ')],
      c.io,
    )
    expect(code).toBe(1)
    expect(c.err.join('')).toMatch(/broken\.json:1: offset \d+: /)
  })

  it('exits 1 for a missing file and 2 for usage errors', async () => {
    expect(await main(['inspect', join(dir, 'nope.json')], capture().io)).toBe(1)
    expect(await main(['inspect'], capture().io)).toBe(2)
    expect(await main(['inspect', 'x', '--bogus'], capture().io)).toBe(2)
    expect(await main(['inspect', 'x', '--format', 'nope'], capture().io)).toBe(2)
    expect(await main(['frobnicate'], capture().io)).toBe(2)
  })

  it('honours a --format override', async () => {
    const c = capture()
    const code = await main(
      ['inspect', file('c5.json', chat), '--json', '--format', 'openai-chat'],
      c.io,
    )
    expect(code).toBe(0)
  })
})

describe('the compaction-lab binary', () => {
  const bin = join(__dirname, '../../bin/compaction-lab.mjs')
  const run = (...args: string[]) =>
    spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8' })

  it('runs from source with no build step and prints JSON', () => {
    const res = run('inspect', file('bin.json', chat), '--json')
    expect(res.status).toBe(0)
    expect((JSON.parse(res.stdout) as InspectJson).format).toBe('openai-chat')
  })

  it('exits 1 naming the line of a broken JSONL file', () => {
    const good = JSON.stringify({
      type: 'user',
      uuid: 'u1',
      parentUuid: null,
      sessionId: 's',
      message: { role: 'user', content: 'hi' },
    })
    const res = run(
      'inspect',
      file('broken.jsonl', `${good}\n{"type": "assistant", "uuid"\n${good}\n`),
    )
    // A bad line in the middle is skipped with a warning; the rest still loads.
    expect(res.status).toBe(0)
    expect(res.stdout).toMatch(/line 2, offset \d+/)
    const fatal = run('inspect', file('fatal.json', '{"messages": [1, 2,'))
    expect(fatal.status).toBe(1)
    expect(fatal.stderr).toMatch(/fatal\.json:1: offset \d+:/)
  })

  it('exits 2 on usage errors', () => {
    expect(run('inspect').status).toBe(2)
  })
})
