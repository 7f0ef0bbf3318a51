import { beforeAll, describe, expect, it, vi } from 'vitest'
import { CHAT_BODY } from './chat-body.testing.ts'
import type {
  FromWorker,
  Params,
  ReplaySeries,
  RequestKind,
  RunSummary,
  ToWorker,
} from './protocol.ts'

/**
 * The worker script in node: `globalThis` stands in for the worker scope, so these tests drive
 * the real message handling (phases, staleness, the transfer list) without a browser.
 */
const posted: { message: FromWorker; transfer?: ArrayBuffer[] }[] = []
let send: (message: ToWorker) => void = () => undefined
/** Called with every posted message (a test can act at an exact point of a request). */
let onPost: (message: FromWorker) => void = () => undefined

beforeAll(async () => {
  vi.stubGlobal('postMessage', (message: FromWorker, transfer?: ArrayBuffer[]) => {
    posted.push({ message, transfer })
    onPost(message)
  })
  await import('./engine.worker.ts')
  const scope = globalThis as unknown as { onmessage: (e: { data: ToWorker }) => void }
  send = (message) => scope.onmessage({ data: message })
})

const BODY = CHAT_BODY
const SMALL = {
  version: 1,
  window: { contextTokens: 2000, reservedOutput: 100 },
  pipeline: [{ strategy: 'supersede-stale-results', params: { minToolOutputTokens: 1 } }],
}

const repliesTo = (id: number) => posted.filter((p) => p.message.id === id)
async function until(predicate: () => boolean): Promise<void> {
  await vi.waitFor(() => expect(predicate()).toBe(true), { timeout: 10_000, interval: 5 })
}
const request = <K extends RequestKind>(id: number, kind: K, params: Params<K>) =>
  send({ kind: 'request', id, request: kind, params } as ToWorker)
const answered = (id: number) => repliesTo(id).some((p) => p.message.kind !== 'progress')
const answer = (id: number) => repliesTo(id).find((p) => p.message.kind !== 'progress')
const replyOf = (id: number) => {
  const m = answer(id)?.message
  if (m?.kind !== 'reply') throw new Error(`request ${id}: ${JSON.stringify(m)}`)
  return m.reply as never
}

describe('engine worker: run', () => {
  it('refuses a run before anything is loaded', async () => {
    request(1, 'run', { config: SMALL })
    await until(() => answered(1))
    expect(answer(1)?.message).toMatchObject({ kind: 'error', message: /load/ })
  })

  it('prices a run during the exact count with the estimate (the first budget does not wait)', async () => {
    request(90, 'load', { text: BODY, fileName: 'a.json' })
    request(91, 'count', { tokenizer: 'o200k_base' })
    request(92, 'run', { config: SMALL })
    await until(() => answered(92))
    expect((replyOf(92) as RunSummary).tokenizer).toBe('estimate')
    await until(() => answered(91))
  })

  it('after the exact count, replies with the summary, then the replay, transferring typed arrays', async () => {
    request(2, 'load', { text: BODY, fileName: 'a.json' })
    request(3, 'count', { tokenizer: 'o200k_base' })
    await until(() => answered(3))
    request(4, 'run', { config: SMALL })
    await until(() => answered(4))
    const summary = replyOf(4) as RunSummary
    // Once the count is in, runs price with the exact counter.
    expect(summary.tokenizer).toBe('o200k_base')
    expect(summary.changes).toBeGreaterThan(0)
    expect(summary.replay).toBeNull()
    const ran = answer(4)
    // Two per-group arrays and the seven decision columns, each transferred, none copied.
    expect(ran?.transfer).toHaveLength(9)
    expect(ran?.transfer).toContain(summary.groups.tokensBefore.buffer)
    expect(ran?.transfer).toContain(summary.decisions.tokensAfter.buffer)
    const phases = repliesTo(4).flatMap((p) =>
      p.message.kind === 'progress' ? [p.message.progress.phase] : [],
    )
    expect(phases).toEqual(['wait', 'prepare', 'compact', 'summarize'])

    request(5, 'replay', {})
    await until(() => answered(5))
    const replay = replyOf(5) as ReplaySeries
    // One point per assistant message after the first message; its arrays are transferred.
    expect(replay.index).toHaveLength(3)
    // index, before, after, reported, cost before/after, re-writes.
    expect(answer(5)?.transfer).toHaveLength(7)
  })

  it('answers a bad config with its issues', async () => {
    request(6, 'run', { config: { version: 1, pipeline: [] } })
    await until(() => answered(6))
    expect(answer(6)?.message).toMatchObject({ kind: 'invalid', issues: [{ path: 'window' }] })
  })

  it('drops a run the client cancelled; the next reuses the prepared conversation', async () => {
    request(7, 'run', { config: null, preset: 'lip' })
    send({ kind: 'cancel', id: 7 })
    request(8, 'run', { config: null, preset: 'recommended' })
    await until(() => answered(8))
    expect(answered(7)).toBe(false)
    expect(
      repliesTo(8).map((p) => p.message.kind === 'progress' && p.message.progress.phase),
    ).not.toContain('prepare')
  })

  it('answers the views: detail, sweep, compare, exports, import, describe', async () => {
    const summary = replyOf(8) as RunSummary
    const groupId = summary.groups.ids[2] ?? ''
    request(9, 'detail', { groupId, maxChars: 50 })
    request(10, 'sweep', { config: SMALL, path: 'window.contextTokens', values: [2000, 4000] })
    request(11, 'compare', { a: SMALL, b: { ...SMALL, pipeline: [] } })
    request(12, 'exportReport', { format: 'csv' })
    request(13, 'importConfig', { text: '{"version": 99}' })
    request(14, 'describe', {})
    request(15, 'detail', { groupId: 'nope', maxChars: 50 })
    await until(() => [9, 10, 11, 12, 13, 14, 15].every(answered))
    expect(replyOf(9)).toMatchObject({ groupId, configName: summary.configName })
    expect((replyOf(10) as { points: unknown[] }).points).toHaveLength(2)
    expect(repliesTo(10).filter((p) => p.message.kind === 'progress').length).toBeGreaterThan(0)
    expect(replyOf(11)).toHaveProperty('differing')
    expect(replyOf(12)).toMatchObject({ language: 'csv', fileName: 'a.decisions.csv' })
    expect(answer(13)?.message.kind).toBe('invalid')
    expect((replyOf(14) as { presets: unknown[] }).presets.length).toBeGreaterThan(0)
    expect(answer(15)?.message).toMatchObject({ kind: 'error', message: /no group "nope"/ })
  })

  it('a failed load keeps the previous transcript and its run (issue 15)', async () => {
    request(95, 'load', { text: '{"this is": not a transcript', fileName: 'bad.json' })
    await until(() => answered(95))
    expect(replyOf(95)).toMatchObject({ error: { message: expect.any(String) }, report: null })
    // The session loaded before is still there: its run's export, and a new run (exact counter).
    request(96, 'exportReport', { format: 'csv' })
    request(97, 'run', { config: SMALL })
    await until(() => answered(96) && answered(97))
    expect(replyOf(96)).toMatchObject({ fileName: 'a.decisions.csv' })
    const ran = replyOf(97) as RunSummary
    expect(ran.tokenizer).toBe('o200k_base')
    expect(ran.changes).toBeGreaterThan(0)
  })

  it('a new load makes a sweep on the old conversation stale', async () => {
    // The load arrives between two points of the sweep.
    onPost = (message) => {
      if (message.id !== 16 || message.kind !== 'progress') return
      onPost = () => undefined
      request(17, 'load', { text: BODY.replace('Fix', 'Mend'), fileName: 'b.json' })
    }
    request(16, 'sweep', {
      config: SMALL,
      path: 'window.contextTokens',
      values: [2000, 3000, 4000],
    })
    await until(() => answered(17))
    await new Promise((r) => setTimeout(r, 50))
    expect(repliesTo(16).some((p) => p.message.kind === 'progress')).toBe(true)
    expect(answer(16)?.message).toBeUndefined()
  })
})

describe('engine worker: files arrive as bytes (issue 10)', () => {
  const loaded = (id: number) =>
    answered(id)
      ? (replyOf(id) as { warnings: { message: string }[]; error: { message: string } | null })
      : undefined

  it('invalid UTF-8 is a warning with its byte offset, and the file loads', async () => {
    const good = new TextEncoder().encode(BODY)
    const at = BODY.indexOf('Fix src')
    const bytes = new Uint8Array(good.length + 1)
    bytes.set(good.subarray(0, at), 0)
    bytes[at] = 0xff
    bytes.set(good.subarray(at), at + 1)
    request(20, 'load', { bytes: bytes.buffer, fileName: 'latin1.json' })
    await until(() => loaded(20) !== undefined)
    expect(loaded(20)?.error).toBeNull()
    expect(loaded(20)?.warnings[0]?.message).toMatch(
      new RegExp(`^invalid UTF-8 at byte offset ${at}:`),
    )
  })

  it('an empty file and a binary file are refused with their own message', async () => {
    request(21, 'load', { bytes: new ArrayBuffer(0), fileName: 'empty.json' })
    request(22, 'load', { bytes: Uint8Array.from([0x1f, 0x8b, 8, 0]).buffer, fileName: 'x.gz' })
    await until(() => loaded(21) !== undefined && loaded(22) !== undefined)
    expect(loaded(21)?.error?.message).toMatch(/^empty file \(0 bytes\)/)
    expect(loaded(22)?.error?.message).toMatch(/gzip-compressed/)
  })
})
