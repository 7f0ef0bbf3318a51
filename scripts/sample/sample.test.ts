import { createHash } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { generateSample, SAMPLE_INDEX } from './generate-sample.ts'
import {
  generateLargeClaudeCode,
  generateLargeOpenAIChat,
  generateManyGroupsClaudeCode,
} from './generate-large.ts'
import { utf8Length } from './session.ts'
import { maxOf } from '../../src/engine/arrays.ts'

type Rec = Record<string, unknown>
// Compare big texts by digest so a mismatch does not print megabytes of diff.
const sha = (text: string): string => createHash('sha256').update(text).digest('hex')
const rec = (v: unknown): Rec =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Rec) : {}
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : [])

interface ToolUse {
  id: string
  name: string
  input: Rec
  msgId: string
}

/** The facts the assertions need, gathered in one pass over a Claude Code JSONL. */
function analyse(jsonl: string) {
  const records = jsonl
    .split('\n')
    .filter((l) => l.length > 0)
    .map((l) => rec(JSON.parse(l)))
  const uses: ToolUse[] = []
  const results: Array<{ id: string; content: string; isError: boolean }> = []
  const msgIds = new Map<string, ToolUse[]>()
  const resultOrderByMsg = new Map<string, string[]>()
  const useMsg = new Map<string, string>()
  let userLines = 0
  let thinking = 0
  const prompts: string[] = []
  const injected: string[] = []
  for (const r of records) {
    const message = rec(r.message)
    if (r.type === 'assistant') {
      const id = String(message.id)
      if (!msgIds.has(id)) msgIds.set(id, [])
      for (const b of arr(message.content).map(rec)) {
        if (b.type === 'thinking') {
          thinking++
          expect(String(b.signature)).toMatch(/^[A-Za-z0-9+/]+={0,2}$/)
        }
        if (b.type === 'tool_use') {
          const use = { id: String(b.id), name: String(b.name), input: rec(b.input), msgId: id }
          uses.push(use)
          msgIds.get(id)?.push(use)
          useMsg.set(use.id, id)
        }
      }
    }
    if (r.type === 'user') {
      userLines++
      const content = message.content
      const text = typeof content === 'string' ? content : String(rec(arr(content)[0]).text ?? '')
      const first = rec(arr(content)[0])
      if (first.type === 'tool_result') {
        const id = String(first.tool_use_id)
        results.push({ id, content: String(first.content), isError: first.is_error === true })
        const msg = useMsg.get(id) ?? '?'
        resultOrderByMsg.set(msg, [...(resultOrderByMsg.get(msg) ?? []), id])
      } else if (r.isMeta === true || text.startsWith('<')) injected.push(text)
      else prompts.push(text)
    }
  }
  return {
    records,
    uses,
    results,
    msgIds,
    resultOrderByMsg,
    userLines,
    thinking,
    prompts,
    injected,
  }
}

describe('generateSample', () => {
  const { jsonl } = generateSample()
  const a = analyse(jsonl)

  it('is deterministic for a seed and varies with it', () => {
    expect(sha(generateSample().jsonl)).toBe(sha(jsonl))
    expect(sha(generateSample(99).jsonl)).not.toBe(sha(jsonl))
  })

  it('matches the committed public/samples files', () => {
    const dir = fileURLToPath(new URL('../../public/samples/', import.meta.url))
    if (!existsSync(dir + 'coding-session.jsonl')) return
    expect(sha(readFileSync(dir + 'coding-session.jsonl', 'utf8'))).toBe(sha(jsonl))
    expect(JSON.parse(readFileSync(dir + 'index.json', 'utf8'))).toEqual(SAMPLE_INDEX)
  })

  it('has the Claude Code envelope: title, snapshots, uuid chain, increasing time', () => {
    expect(a.records[0]).toMatchObject({ type: 'summary' })
    expect(a.records.some((r) => r.type === 'file-history-snapshot')).toBe(true)
    const seen = new Set<string>()
    let last = ''
    for (const r of a.records.filter((x) => x.type === 'user' || x.type === 'assistant')) {
      expect(r).toMatchObject({ isSidechain: false, userType: 'external', version: '2.0.42' })
      expect(r.parentUuid === null ? seen.size === 0 : seen.has(String(r.parentUuid))).toBe(true)
      seen.add(String(r.uuid))
      expect(String(r.timestamp) >= last).toBe(true)
      last = String(r.timestamp)
    }
    expect(rec(a.records[0]).leafUuid).toBe([...seen].pop())
    expect(utf8Length(jsonl)).toBeGreaterThan(500_000)
    expect(utf8Length(jsonl)).toBeLessThan(1_500_000)
  })

  it('has 200–400 canonical messages, 8–15 real prompts and the injected kinds', () => {
    const messages = a.userLines + a.msgIds.size
    expect(messages).toBeGreaterThanOrEqual(200)
    expect(messages).toBeLessThanOrEqual(400)
    expect(a.prompts.length).toBeGreaterThanOrEqual(8)
    expect(a.prompts.length).toBeLessThanOrEqual(15)
    expect(
      a.records.some((r) => r.isMeta === true && JSON.stringify(r.message).includes('Caveat')),
    ).toBe(true)
    expect(a.injected.some((t) => t.startsWith('<system-reminder>'))).toBe(true)
    expect(a.injected.some((t) => t.startsWith('<command-name>'))).toBe(true)
    expect(a.thinking).toBeGreaterThanOrEqual(5)
  })

  it('uses every tool kind, with repeated reads of the same files (full and ranged)', () => {
    const names = new Set(a.uses.map((u) => u.name))
    for (const n of ['Read', 'Edit', 'Write', 'Grep', 'Glob', 'Bash', 'TodoWrite', 'Skill'])
      expect(names).toContain(n)
    const reads = a.uses.filter((u) => u.name === 'Read')
    const byPath = new Map<string, ToolUse[]>()
    for (const r of reads)
      byPath.set(String(r.input.file_path), [...(byPath.get(String(r.input.file_path)) ?? []), r])
    const both = [...byPath.values()].filter(
      (rs) => rs.some((r) => 'offset' in r.input) && rs.some((r) => !('offset' in r.input)),
    )
    expect(both.length).toBeGreaterThanOrEqual(2)
    expect(maxOf([...byPath.values()].map((rs) => rs.length))).toBeGreaterThanOrEqual(4)
    expect(a.uses.some((u) => u.name === 'Grep' && 'pattern' in u.input && 'path' in u.input)).toBe(
      true,
    )
    expect(a.uses.some((u) => u.name === 'Glob' && 'pattern' in u.input)).toBe(true)
    const bash = a.uses.filter((u) => u.name === 'Bash').map((u) => String(u.input.command))
    expect(bash.some((c) => c.startsWith('npm test'))).toBe(true)
    expect(bash.some((c) => c.startsWith('git status'))).toBe(true)
  })

  it('answers every tool call exactly once, with a huge output and an error among them', () => {
    const ids = a.results.map((r) => r.id).sort()
    expect(ids).toEqual(a.uses.map((u) => u.id).sort())
    const sizes = a.results.map((r) => utf8Length(r.content))
    const huge = sizes.filter((n) => n >= 150_000 && n <= 250_000)
    expect(huge).toHaveLength(1)
    expect(a.results.some((r) => r.isError)).toBe(true)
  })

  it('has parallel calls, at least one answered out of order', () => {
    const parallel = [...a.msgIds.entries()].filter(([, us]) => us.length >= 2)
    expect(parallel.length).toBeGreaterThanOrEqual(3)
    expect(parallel.every(([, us]) => us.length <= 4)).toBe(true)
    const outOfOrder = parallel.filter(
      ([id, us]) => a.resultOrderByMsg.get(id)?.join() !== us.map((u) => u.id).join(),
    )
    expect(outOfOrder.length).toBeGreaterThanOrEqual(1)
  })

  it('carries growing usage snapshots on every assistant line', () => {
    const usage = a.records
      .filter((r) => r.type === 'assistant')
      .map((r) => rec(rec(r.message).usage))
    for (const u of usage) {
      for (const k of [
        'input_tokens',
        'cache_read_input_tokens',
        'cache_creation_input_tokens',
        'output_tokens',
      ]) {
        expect(typeof u[k]).toBe('number')
      }
    }
    const ctx = (u: Rec): number =>
      Number(u.input_tokens) +
      Number(u.cache_read_input_tokens) +
      Number(u.cache_creation_input_tokens)
    const first = ctx(usage[0] as Rec)
    const lastCtx = ctx(usage[usage.length - 1] as Rec)
    expect(lastCtx).toBeGreaterThan(first * 3)
    expect(lastCtx).toBeLessThan(200_000)
  })
})

describe('generateLarge*', () => {
  it('builds a Claude Code JSONL near the target size, deterministically, every line JSON', () => {
    const target = 4_000_000
    const text = generateLargeClaudeCode(target, 7)
    expect(Math.abs(utf8Length(text) - target) / target).toBeLessThan(0.1)
    expect(sha(generateLargeClaudeCode(target, 7))).toBe(sha(text))
    const a = analyse(text)
    expect(a.results.map((r) => r.id).sort()).toEqual(a.uses.map((u) => u.id).sort())
    // Zipf-like repetition: far fewer distinct files than reads.
    const reads = a.uses.filter((u) => u.name === 'Read').map((u) => String(u.input.file_path))
    expect(new Set(reads).size).toBeLessThan(reads.length / 3)
  })

  it('builds an OpenAI chat request body near the target size whose calls all get answers', () => {
    const target = 4_000_000
    const text = generateLargeOpenAIChat(target, 11)
    expect(Math.abs(utf8Length(text) - target) / target).toBeLessThan(0.1)
    const body = rec(JSON.parse(text))
    expect(body.model).toBe('gpt-4.1')
    expect(arr(body.tools).length).toBeGreaterThan(0)
    const messages = arr(body.messages).map(rec)
    const calls = messages.flatMap((m) => arr(m.tool_calls).map((c) => String(rec(c).id)))
    const answers = messages.filter((m) => m.role === 'tool').map((m) => String(m.tool_call_id))
    expect(answers.sort()).toEqual(calls.sort())
    for (const m of messages)
      for (const c of arr(m.tool_calls)) JSON.parse(String(rec(rec(c).function).arguments))
  })

  it('reaches 50 MB within ±10%', () => {
    const started = performance.now()
    const text = generateLargeClaudeCode(50_000_000, 1)
    const ms = performance.now() - started
    console.log(`generateLargeClaudeCode(50 MB): ${Math.round(ms)} ms`)
    expect(Math.abs(utf8Length(text) - 50_000_000) / 50_000_000).toBeLessThan(0.1)
  })

  it('builds N small tool-call groups, each tool_use answered once, prompts every 20', () => {
    const a = analyse(generateManyGroupsClaudeCode(1000, 3))
    expect(a.uses).toHaveLength(1000)
    expect(new Set(a.uses.map((u) => u.id)).size).toBe(1000)
    expect(a.results.map((r) => r.id).sort()).toEqual(a.uses.map((u) => u.id).sort())
    expect(a.msgIds.size).toBe(1000)
    expect(a.prompts).toHaveLength(50)
  })
})
