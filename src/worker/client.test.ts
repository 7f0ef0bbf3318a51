import { sessionCost } from '../engine/cost/summary.ts'
import { describe, expect, it } from 'vitest'
import { ConfigInvalidError, EngineClient, isStale, StaleError, type WorkerLike } from './client.ts'
import {
  PROTOCOL_VERSION,
  type CountedMessage,
  type FromWorker,
  type LoadedMessage,
  type RunSummary,
  type ToWorker,
} from './protocol.ts'

/** A worker stand-in: records what the client posts and lets the test reply. */
class FakeWorker implements WorkerLike {
  readonly posted: ToWorker[] = []
  readonly transfers: (Transferable[] | undefined)[] = []
  terminated = false
  onmessage: ((event: MessageEvent<FromWorker>) => void) | null = null
  onerror: ((event: ErrorEvent) => void) | null = null

  postMessage(message: ToWorker, transfer?: Transferable[]): void {
    this.posted.push(message)
    this.transfers.push(transfer)
  }

  terminate(): void {
    this.terminated = true
  }

  reply(message: FromWorker): void {
    this.onmessage?.({ data: message } as MessageEvent<FromWorker>)
  }
}

function loaded(id: number, extra: Partial<LoadedMessage> = {}): LoadedMessage {
  return {
    type: 'loaded',
    id,
    protocol: PROTOCOL_VERSION,
    detection: { format: 'openai-chat', confidence: 0.95, evidence: ['a messages array'] },
    candidates: [],
    formats: ['openai-chat'],
    warnings: [],
    warningCount: 0,
    error: null,
    report: null,
    preview: [],
    ms: 1,
    items: null,
    item: null,
    ...extra,
  }
}

function counted(id: number): CountedMessage {
  // The report's content does not matter to the client: it only routes messages by id.
  return { type: 'counted', id, tokenizer: 'o200k_base', report: null as never, ms: 2 }
}

function summary(configName: string): RunSummary {
  // Only identity matters to the client: it hands the summary over untouched.
  return { configName } as RunSummary
}

function setup() {
  const worker = new FakeWorker()
  const client = new EngineClient(() => worker)
  return { worker, client }
}

describe('EngineClient', () => {
  it('resolves loaded, then counted, for the same request id', async () => {
    const { worker, client } = setup()
    const request = client.load('{}', { fileName: 'a.json' })
    expect(worker.posted).toEqual([
      { type: 'load', id: request.id, text: '{}', fileName: 'a.json', format: undefined },
    ])
    worker.reply(loaded(request.id))
    await expect(request.loaded).resolves.toMatchObject({ type: 'loaded', id: request.id })
    worker.reply(counted(request.id))
    await expect(request.counted).resolves.toMatchObject({ type: 'counted', id: request.id })
  })

  it("sends a file's bytes in the transfer list, and text as text", () => {
    const { client, worker } = setup()
    const bytes = new TextEncoder().encode('{"messages":[]}').buffer
    client.load(bytes, { fileName: 'a.json' })
    expect(worker.posted.at(-1)).toMatchObject({ type: 'load', bytes, fileName: 'a.json' })
    expect(worker.transfers.at(-1)).toEqual([bytes])
    client.load('pasted')
    expect(worker.posted.at(-1)).toMatchObject({ type: 'load', text: 'pasted' })
    expect(worker.transfers.at(-1)).toBeUndefined()
  })

  it('forwards progress to the request that asked', async () => {
    const { worker, client } = setup()
    const phases: string[] = []
    const request = client.load('x', { onProgress: (p) => phases.push(p.phase) })
    worker.reply({ type: 'progress', id: request.id, phase: 'parse', done: 0, total: 4 })
    worker.reply({ type: 'progress', id: request.id, phase: 'estimate', done: 1, total: 4 })
    expect(phases).toEqual(['parse', 'estimate'])
  })

  it('makes earlier requests stale when a new load starts, and drops their replies', async () => {
    const { worker, client } = setup()
    const first = client.load('first')
    const second = client.load('second')
    await expect(first.loaded).rejects.toBeInstanceOf(StaleError)
    await expect(first.counted).rejects.toSatisfy(isStale)
    expect(worker.posted.map((m) => [m.type, m.id])).toEqual([
      ['load', first.id],
      ['cancel', first.id],
      ['load', second.id],
    ])
    // A late reply to the first load must not resolve the second.
    worker.reply(loaded(first.id, { fileName: 'stale' }))
    worker.reply(loaded(second.id, { fileName: 'fresh' }))
    await expect(second.loaded).resolves.toMatchObject({ fileName: 'fresh' })
  })

  it('cancel rejects the request and tells the worker', async () => {
    const { worker, client } = setup()
    const request = client.load('x')
    client.cancel(request.id)
    await expect(request.loaded).rejects.toSatisfy(isStale)
    expect(worker.posted.at(-1)).toEqual({ type: 'cancel', id: request.id })
  })

  it('resolves counted with null when the transcript could not be parsed', async () => {
    const { worker, client } = setup()
    const request = client.load('not json')
    worker.reply(loaded(request.id, { error: { line: 1, offset: 0, message: 'bad' } }))
    await expect(request.loaded).resolves.toMatchObject({ error: { line: 1 } })
    await expect(request.counted).resolves.toBeNull()
  })

  it('refuses a worker that speaks another protocol version', async () => {
    const { worker, client } = setup()
    const request = client.load('x')
    worker.reply(loaded(request.id, { protocol: PROTOCOL_VERSION + 1 }))
    await expect(request.loaded).rejects.toThrow(/protocol/)
  })

  it('rejects with the worker error message, including its line', async () => {
    const { worker, client } = setup()
    const request = client.count('cl100k_base')
    expect(worker.posted).toEqual([{ type: 'count', id: request.id, tokenizer: 'cl100k_base' }])
    worker.reply({ type: 'error', id: request.id, message: 'boom', line: 7 })
    await expect(request.counted).rejects.toThrow('boom (line 7)')
  })

  it('fails every pending request when the worker itself crashes', async () => {
    const { worker, client } = setup()
    const request = client.load('x')
    worker.onerror?.({ message: 'script failed', preventDefault: () => undefined } as ErrorEvent)
    await expect(request.loaded).rejects.toThrow('script failed')
    expect(worker.terminated).toBe(true)
  })

  describe('run', () => {
    it('posts the run and resolves with the summary', async () => {
      const { worker, client } = setup()
      const phases: string[] = []
      const request = client.run(null, {
        preset: 'lip',
        replay: true,
        onProgress: (p) => phases.push(p.phase),
      })
      expect(worker.posted).toEqual([
        { type: 'run', id: request.id, config: null, preset: 'lip', replay: true },
      ])
      worker.reply({ type: 'runProgress', id: request.id, phase: 'compact', done: 2, total: 5 })
      worker.reply({ type: 'ran', id: request.id, summary: summary('lip') })
      await expect(request.promise).resolves.toMatchObject({ configName: 'lip' })
      expect(phases).toEqual(['compact'])
    })

    it('resolves the summary first and hands over the replay that follows; a newer run drops it', async () => {
      const { client, worker } = setup()
      const replays: number[] = []
      const progress: number[] = []
      const request = client.run(null, {
        preset: 'lip',
        replay: true,
        onReplayProgress: (done) => progress.push(done),
        onReplay: (r) => replays.push(r.index.length),
      })
      const pending = { ...summary('lip'), replayPending: true } as RunSummary
      worker.reply({ type: 'ran', id: request.id, summary: pending })
      await expect(request.promise).resolves.toBe(pending)
      worker.reply({ type: 'replayProgress', id: request.id, done: 5, total: 10 })
      const series = {
        index: new Int32Array(3),
        before: new Float64Array(3),
        after: new Float64Array(3),
        reported: new Float64Array(3),
        fired: [[], [], []],
        costBefore: new Float64Array(3),
        costAfter: new Float64Array(3),
        rewrites: new Float64Array(3),
        cost: sessionCost([]),
      }
      worker.reply({ type: 'replayed', id: request.id, replay: series })
      expect(progress).toEqual([5])
      expect(replays).toEqual([3])

      // A run whose replay is still to come is cancelled by a newer run: its replay is dropped.
      const older = client.run(null, {
        preset: 'lip',
        replay: true,
        onReplay: () => replays.push(-1),
      })
      worker.reply({ type: 'ran', id: older.id, summary: pending })
      await older.promise
      client.run(null, { preset: 'recommended' })
      expect(worker.posted.at(-2)).toEqual({ type: 'cancel', id: older.id })
      worker.reply({ type: 'replayed', id: older.id, replay: series })
      expect(replays).toEqual([3])
    })

    it('sends a config without a preset, replay off by default', () => {
      const { worker, client } = setup()
      const config = { version: 1 }
      const request = client.run(config)
      expect(worker.posted).toEqual([{ type: 'run', id: request.id, config, replay: false }])
    })

    it('rejects with ConfigInvalidError carrying every issue', async () => {
      const { worker, client } = setup()
      const request = client.run({ version: 1 })
      const issues = [
        { path: 'window', message: 'Required' },
        { path: 'pipeline[0].strategy', message: 'unknown strategy' },
      ]
      worker.reply({ type: 'configInvalid', id: request.id, issues })
      const error: unknown = await request.promise.catch((e: unknown) => e)
      expect(error).toBeInstanceOf(ConfigInvalidError)
      expect((error as ConfigInvalidError).issues).toEqual(issues)
      expect((error as ConfigInvalidError).message).toBe(
        'invalid config: window: Required (and 1 more)',
      )
    })

    it('a newer run makes the older stale and drops its late reply', async () => {
      const { worker, client } = setup()
      const first = client.run(null, { preset: 'lip' })
      const second = client.run(null, { preset: 'recommended' })
      await expect(first.promise).rejects.toBeInstanceOf(StaleError)
      expect(worker.posted.map((m) => [m.type, m.id])).toEqual([
        ['run', first.id],
        ['cancel', first.id],
        ['run', second.id],
      ])
      worker.reply({ type: 'ran', id: first.id, summary: summary('lip') })
      worker.reply({ type: 'ran', id: second.id, summary: summary('recommended') })
      await expect(second.promise).resolves.toMatchObject({ configName: 'recommended' })
    })

    it('a run leaves a load still counting alive; a newer load makes the run stale', async () => {
      const { worker, client } = setup()
      const load = client.load('x')
      const run = client.run(null, { preset: 'lip' })
      worker.reply(loaded(load.id))
      worker.reply(counted(load.id))
      await expect(load.counted).resolves.toMatchObject({ id: load.id })
      const next = client.load('y')
      await expect(run.promise).rejects.toSatisfy(isStale)
      expect(worker.posted.at(-2)).toEqual({ type: 'cancel', id: run.id })
      // The stale run's reply arrives anyway: ignored, and the new load is untouched.
      worker.reply({ type: 'ran', id: run.id, summary: summary('lip') })
      worker.reply(loaded(next.id))
      await expect(next.loaded).resolves.toMatchObject({ id: next.id })
    })

    it('cancel() rejects with StaleError and tells the worker', async () => {
      const { worker, client } = setup()
      const request = client.run(null, { preset: 'lip' })
      request.cancel()
      await expect(request.promise).rejects.toSatisfy(isStale)
      expect(worker.posted.at(-1)).toEqual({ type: 'cancel', id: request.id })
    })

    it('rejects with the worker error (e.g. nothing loaded yet)', async () => {
      const { worker, client } = setup()
      const request = client.run(null, { preset: 'lip' })
      worker.reply({ type: 'error', id: request.id, message: 'nothing loaded to run on' })
      await expect(request.promise).rejects.toThrow('nothing loaded to run on')
    })
  })
})
