import { beforeAll, describe, expect, it, vi } from 'vitest'
import type { FromWorker, RanMessage, ToWorker } from './protocol.ts'

/**
 * The worker script in node: `globalThis` stands in for the worker scope, so these tests drive
 * the real message handling (phases, staleness, the transfer list) without a browser.
 */
const posted: { message: FromWorker; transfer?: ArrayBuffer[] }[] = []
let send: (message: ToWorker) => void = () => undefined

beforeAll(async () => {
  vi.stubGlobal('postMessage', (message: FromWorker, transfer?: ArrayBuffer[]) => {
    posted.push({ message, transfer })
  })
  await import('./engine.worker.ts')
  const scope = globalThis as unknown as { onmessage: (e: { data: ToWorker }) => void }
  send = (message) => scope.onmessage({ data: message })
})

const read = (id: string) => ({
  id,
  type: 'function',
  function: { name: 'read_file', arguments: JSON.stringify({ path: 'src/a.ts' }) },
})
const BODY = JSON.stringify({
  model: 'gpt-4o',
  messages: [
    { role: 'user', content: 'Fix src/a.ts' },
    { role: 'assistant', content: null, tool_calls: [read('c1')] },
    { role: 'tool', tool_call_id: 'c1', content: 'export const x = 1\n'.repeat(50) },
    { role: 'assistant', content: null, tool_calls: [read('c2')] },
    { role: 'tool', tool_call_id: 'c2', content: 'export const x = 2\n'.repeat(50) },
    { role: 'assistant', content: 'Done.' },
  ],
})
const SMALL = {
  version: 1,
  window: { contextTokens: 2000, reservedOutput: 100 },
  pipeline: [{ strategy: 'supersede-stale-results', params: { minToolOutputTokens: 1 } }],
}

const repliesTo = (id: number) => posted.filter((p) => p.message.id === id)
async function until(predicate: () => boolean): Promise<void> {
  await vi.waitFor(() => expect(predicate()).toBe(true), { timeout: 10_000, interval: 5 })
}

describe('engine worker: run', () => {
  it('refuses a run before anything is loaded', async () => {
    send({ type: 'run', id: 1, config: SMALL, replay: false })
    await until(() => repliesTo(1).some((p) => p.message.type === 'error'))
    expect(repliesTo(1).at(-1)?.message).toMatchObject({ type: 'error', message: /load/ })
  })

  it('prices a run during the exact count with the estimate (the first budget does not wait)', async () => {
    send({ type: 'load', id: 90, text: BODY, fileName: 'a.json' })
    send({ type: 'run', id: 91, config: SMALL, replay: false })
    await until(() => repliesTo(91).some((p) => p.message.type === 'ran'))
    const ran = repliesTo(91).find((p) => p.message.type === 'ran')
    expect((ran?.message as RanMessage).summary.tokenizer).toBe('estimate')
    await until(() => repliesTo(90).some((p) => p.message.type === 'counted'))
  })

  it('after the exact count, sends the summary, then the replay, transferring typed arrays', async () => {
    send({ type: 'load', id: 2, text: BODY, fileName: 'a.json' })
    await until(() => repliesTo(2).some((p) => p.message.type === 'counted'))
    send({ type: 'run', id: 3, config: SMALL, replay: true })
    await until(() => repliesTo(3).some((p) => p.message.type === 'replayed'))
    const ran = repliesTo(3).find((p) => p.message.type === 'ran')
    const summary = (ran?.message as RanMessage).summary
    // Once the count is in, runs price with the exact counter.
    expect(summary.tokenizer).toBe('o200k_base')
    expect(summary.changes).toBeGreaterThan(0)
    // The summary comes first, without the replay but announcing it.
    expect(summary.replay).toBeNull()
    expect(summary.replayPending).toBe(true)
    expect(ran?.transfer).toHaveLength(5)
    expect(ran?.transfer).toContain(summary.groups.tokensBefore.buffer)
    const types = repliesTo(3).map((p) => p.message.type)
    expect(types.indexOf('ran')).toBeLessThan(types.indexOf('replayed'))
    const replayed = repliesTo(3).find((p) => p.message.type === 'replayed')
    if (replayed?.message.type !== 'replayed') throw new Error('no replay')
    // One point per assistant message after the first message; its arrays are transferred.
    expect(replayed.message.replay.index).toHaveLength(3)
    // index, before, after, reported, cost before/after, re-writes.
    expect(replayed.transfer).toHaveLength(7)
    const phases = repliesTo(3).flatMap((p) =>
      p.message.type === 'runProgress' ? [p.message.phase] : [],
    )
    expect(phases).toEqual(['wait', 'prepare', 'compact', 'summarize', 'replay', 'done'])
  })

  it('answers a bad config with configInvalid', async () => {
    send({ type: 'run', id: 4, config: { version: 1, pipeline: [] }, replay: false })
    await until(() => repliesTo(4).some((p) => p.message.type === 'configInvalid'))
    expect(repliesTo(4).at(-1)?.message).toMatchObject({ issues: [{ path: 'window' }] })
  })

  it('drops a run that a newer run made stale', async () => {
    send({ type: 'run', id: 5, config: null, preset: 'lip', replay: false })
    send({ type: 'run', id: 6, config: null, preset: 'recommended', replay: false })
    await until(() => repliesTo(6).some((p) => p.message.type === 'ran'))
    expect(repliesTo(5).some((p) => p.message.type === 'ran')).toBe(false)
    // The second run reuses the prepared conversation: no `prepare` phase.
    expect(
      repliesTo(6).map((p) => p.message.type === 'runProgress' && p.message.phase),
    ).not.toContain('prepare')
  })
})

describe('engine worker: files arrive as bytes (issue 10)', () => {
  const loaded = (id: number) =>
    repliesTo(id).find((p) => p.message.type === 'loaded')?.message as
      { warnings: { message: string }[]; error: { message: string } | null } | undefined

  it('invalid UTF-8 is a warning with its byte offset, and the file loads', async () => {
    const good = new TextEncoder().encode(BODY)
    const at = BODY.indexOf('Fix src')
    const bytes = new Uint8Array(good.length + 1)
    bytes.set(good.subarray(0, at), 0)
    bytes[at] = 0xff
    bytes.set(good.subarray(at), at + 1)
    send({ type: 'load', id: 20, bytes: bytes.buffer, fileName: 'latin1.json' })
    await until(() => loaded(20) !== undefined)
    expect(loaded(20)?.error).toBeNull()
    expect(loaded(20)?.warnings[0]?.message).toMatch(
      new RegExp(`^invalid UTF-8 at byte offset ${at}:`),
    )
  })

  it('an empty file and a binary file are refused with their own message', async () => {
    send({ type: 'load', id: 21, bytes: new ArrayBuffer(0), fileName: 'empty.json' })
    send({
      type: 'load',
      id: 22,
      bytes: Uint8Array.from([0x1f, 0x8b, 8, 0]).buffer,
      fileName: 'x.gz',
    })
    await until(() => loaded(21) !== undefined && loaded(22) !== undefined)
    expect(loaded(21)?.error?.message).toMatch(/^empty file \(0 bytes\)/)
    expect(loaded(22)?.error?.message).toMatch(/gzip-compressed/)
  })
})
