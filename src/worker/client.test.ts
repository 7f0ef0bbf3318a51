import { describe, expect, it } from 'vitest'
import {
  ConfigInvalidError,
  EngineClient,
  isStale,
  StaleError,
  WorkerCrashedError,
} from './client.ts'
import { fakeWorker, type FakeWorker } from './fake-worker.testing.ts'
import { PROTOCOL_VERSION, type FromWorker, type Loaded } from './protocol.ts'

const LOADED: Loaded = {
  detection: null,
  candidates: [],
  formats: [],
  warnings: [],
  warningCount: 0,
  error: null,
  report: null,
  preview: [],
  ms: 1,
  items: null,
  item: null,
}

function setup(): { worker: FakeWorker; client: EngineClient; transfers: Transferable[][] } {
  const worker = fakeWorker()
  const transfers: Transferable[][] = []
  const client = new EngineClient(() => {
    const w = worker.create()
    const post = w.postMessage.bind(w)
    w.postMessage = (message, transfer) => {
      if (transfer) transfers.push(transfer)
      post(message, transfer)
    }
    return w
  })
  return { worker, client, transfers }
}

const lastId = (worker: FakeWorker) => worker.requests().at(-1)?.id ?? -1
const cancels = (worker: FakeWorker) =>
  worker.sent.filter((m) => m.kind === 'cancel').map((m) => m.id)
const settle = <T>(p: Promise<T>) =>
  p.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  )

describe('EngineClient.request', () => {
  it('sends one typed request and resolves with the reply to its id', async () => {
    const { worker, client } = setup()
    const loaded = client.request('load', { text: '{}', fileName: 'a.json' })
    expect(worker.requests()[0]).toEqual({
      kind: 'request',
      id: 1,
      request: 'load',
      params: { text: '{}', fileName: 'a.json' },
    })
    worker.reply(1, 'load', LOADED)
    await expect(loaded).resolves.toEqual(LOADED)
  })

  it("transfers a buffer among the params (a file's bytes), and sends text as text", () => {
    const { client, transfers } = setup()
    const bytes = new TextEncoder().encode('{}').buffer
    void client.request('load', { bytes })
    void client.request('load', { text: '{}' })
    expect(transfers).toEqual([[bytes]])
  })

  it('forwards progress to the request that asked', async () => {
    const { worker, client } = setup()
    const seen: number[] = []
    const swept = client.request(
      'sweep',
      { config: {}, path: 'a', values: [1, 2] },
      { onProgress: (p) => seen.push(p.done) },
    )
    const id = lastId(worker)
    worker.post({ kind: 'progress', id, progress: { done: 1, total: 2 } })
    worker.reply(id, 'sweep', { path: 'a', points: [] })
    await swept
    expect(seen).toEqual([1])
  })

  it('a newer request of a lane makes the older stale, tells the worker, and drops its reply', async () => {
    const { worker, client } = setup()
    const first = settle(client.request('compare', { a: 1, b: 2 }))
    const second = client.request('compare', { a: 1, b: 3 })
    expect(cancels(worker)).toEqual([1])
    const compared = { a: {} as never, b: {} as never, differing: [] }
    worker.reply(1, 'compare', compared)
    worker.reply(2, 'compare', compared)
    expect(isStale(((await first) as { error: unknown }).error)).toBe(true)
    await expect(second).resolves.toBe(compared)
  })

  it('lanes are independent: the table rows never make the drawer stale', () => {
    const { worker, client } = setup()
    void client.request('detail', { groupId: 'g1', maxChars: 10 })
    void client.request('detail', { groupId: 'g2', maxChars: 10 }, { lane: 'rows' })
    void client.request('sweep', { config: {}, path: 'a', values: [] })
    expect(cancels(worker)).toEqual([])
    void client.request('detail', { groupId: 'g3', maxChars: 10 })
    expect(cancels(worker)).toEqual([1])
  })

  it('the export dialog shows one file: its four requests share a lane', () => {
    const { worker, client } = setup()
    void client.request('exportConfig', { config: null, target: 'lip', preset: 'lip' })
    void client.request('exportReport', { format: 'json' })
    void client.request('importConfig', { text: '{}' })
    expect(cancels(worker)).toEqual([1, 2])
  })

  it('a new transcript makes every request about the old one stale, but not the catalog', () => {
    const { worker, client } = setup()
    void client.request('run', { config: null, preset: 'lip' })
    void client.request('detail', { groupId: 'g1', maxChars: 10 })
    void client.request('describe', {})
    void client.request('exportConfig', { config: null, target: 'lip', preset: 'lip' })
    void client.request('load', { text: '{}' })
    expect(cancels(worker)).toEqual([1, 2])
    void client.request('count', { tokenizer: 'cl100k_base' })
    expect(cancels(worker)).toEqual([1, 2, 5])
  })

  it('an aborted signal makes the request stale and tells the worker', async () => {
    const { worker, client } = setup()
    const controller = new AbortController()
    const ran = settle(client.request('run', { config: {} }, { signal: controller.signal }))
    controller.abort()
    expect(((await ran) as { error: unknown }).error).toBeInstanceOf(StaleError)
    expect(cancels(worker)).toEqual([1])
    const already = settle(client.request('describe', {}, { signal: controller.signal }))
    expect(((await already) as { error: unknown }).error).toBeInstanceOf(StaleError)
  })

  it('rejects with every issue of a refused config, or with the error message', async () => {
    const { worker, client } = setup()
    const ran = settle(client.request('run', { config: {} }))
    const issues = [{ path: 'pipeline[0].strategy', message: 'unknown strategy' }]
    worker.post({ kind: 'invalid', id: 1, issues })
    const error = ((await ran) as { error: unknown }).error
    expect(error).toBeInstanceOf(ConfigInvalidError)
    expect((error as ConfigInvalidError).issues).toEqual(issues)
    const detail = client.request('detail', { groupId: 'x', maxChars: 1 })
    worker.post({ kind: 'error', id: 2, message: 'no group "x"' })
    await expect(detail).rejects.toThrow('no group "x"')
  })

  it('refuses a worker that speaks another protocol version', async () => {
    const { worker, client } = setup()
    const loaded = client.request('load', { text: '{}' })
    worker.post({
      kind: 'reply',
      id: 1,
      request: 'load',
      protocol: PROTOCOL_VERSION + 1,
      reply: LOADED,
    } as FromWorker)
    await expect(loaded).rejects.toThrow(/protocol/)
  })

  it('fails every pending request when the worker itself crashes', async () => {
    let crash: () => void = () => undefined
    let created = 0
    const worker = fakeWorker()
    const client = new EngineClient(() => {
      created++
      const w = worker.create()
      crash = () => w.onerror?.({ message: 'boom', preventDefault: () => undefined } as ErrorEvent)
      return w
    })
    const a = client.request('describe', {})
    const b = client.request('sweep', { config: {}, path: 'a', values: [] })
    crash()
    await expect(a).rejects.toThrow('boom')
    await expect(b).rejects.toBeInstanceOf(WorkerCrashedError)
    // The next request starts a fresh worker.
    const c = client.request('describe', {})
    expect(created).toBe(2)
    expect(worker.requests().at(-1)).toMatchObject({ request: 'describe', id: 3 })
    crash()
    await expect(c).rejects.toThrow('boom')
  })
})
