import { describe, expect, it } from 'vitest'
import type { WorkerLike } from './client.ts'
import { FleetPool } from './pool.ts'
import {
  PROTOCOL_VERSION,
  type FleetRequestMap,
  type FromWorker,
  type ToWorker,
} from './protocol.ts'

type Message = FromWorker<FleetRequestMap>

/**
 * Fake fleet workers speaking the shared envelope: each answers a file after a tick with one
 * outcome naming its byte count; `crash*` files kill their worker, `slow*` files never finish,
 * `bad*` files are refused as an invalid config, `oops*` files fail with an error.
 */
function fakeWorkers() {
  let busy = 0
  let maxBusy = 0
  const workers: { sent: ToWorker<FleetRequestMap>[]; terminated: boolean }[] = []
  const crashes: string[] = []
  const create = (): WorkerLike<FleetRequestMap> => {
    const record = { sent: [] as ToWorker<FleetRequestMap>[], terminated: false }
    workers.push(record)
    const w: WorkerLike<FleetRequestMap> = {
      onmessage: null,
      onerror: null,
      terminate: () => {
        record.terminated = true
      },
      postMessage: (m) => {
        record.sent.push(m)
        if (m.kind === 'cancel') return
        const { id, params } = m
        const answer = (data: Message) => w.onmessage?.({ data } as MessageEvent<Message>)
        busy++
        maxBusy = Math.max(maxBusy, busy)
        setTimeout(() => {
          if (params.name.startsWith('slow')) return
          busy--
          if (params.name.startsWith('crash')) {
            if (!w.onerror) throw new Error('the client never listened for a crash')
            crashes.push(params.name)
            return w.onerror({ message: 'boom', preventDefault: () => undefined } as ErrorEvent)
          }
          if (params.name.startsWith('bad'))
            return answer({ kind: 'invalid', id, issues: [{ path: 'window', message: 'no' }] })
          if (params.name.startsWith('oops')) return answer({ kind: 'error', id, message: 'bug' })
          answer({ kind: 'progress', id, progress: { done: 1, total: 2 } })
          const size = params.bytes instanceof Blob ? params.bytes.size : params.bytes.byteLength
          const failure = { name: params.name, message: `${size} bytes` }
          answer({
            kind: 'reply',
            id,
            request: 'evaluate',
            protocol: PROTOCOL_VERSION,
            reply: [{ kind: 'failed', failure }],
          })
        }, 2)
      },
    }
    return w
  }
  return { create, workers, crashes, maxBusy: () => maxBusy }
}

const task = (name: string) => ({
  name,
  read: async () => new TextEncoder().encode(name).buffer as ArrayBuffer,
  config: null,
  preset: 'recommended',
})

const outcomeOf = (r: Awaited<ReturnType<FleetPool['evaluate']>>) =>
  r.kind === 'evaluated' ? r.outcomes[0] : r

describe('FleetPool', () => {
  it('runs every file, at most `size` at once; a crashed worker fails only its file', async () => {
    const fake = fakeWorkers()
    const pool = new FleetPool(2, fake.create)
    const names = ['a', 'bb', 'crash', 'dddd', 'eeeee', 'ffffff']
    const results = await Promise.all(names.map((n) => pool.evaluate(task(n))))
    // The crash happened, once, and only its file failed with the worker's reason.
    expect(fake.crashes).toEqual(['crash'])
    expect(results.map(outcomeOf)).toEqual(
      names.map((n) =>
        n === 'crash'
          ? { kind: 'failed', failure: { name: n, message: 'worker failed: boom' } }
          : { kind: 'failed', failure: { name: n, message: `${n.length} bytes` } },
      ),
    )
    expect(fake.maxBusy()).toBe(2)
    // Two workers, plus the fresh one that replaced the crashed worker and took a later file.
    expect(fake.workers).toHaveLength(3)
    expect(fake.workers.filter((w) => w.terminated)).toHaveLength(1)
    expect(fake.workers[2]?.sent.length).toBeGreaterThan(0)
    expect(pool.pending).toBe(0)
  })

  it('cancelAll settles the queue and the files under way as cancelled, and tells the worker', async () => {
    const fake = fakeWorkers()
    const pool = new FleetPool(1, fake.create)
    const running = pool.evaluate(task('slow'))
    const queued = pool.evaluate(task('next'))
    await new Promise((r) => setTimeout(r, 5))
    pool.cancelAll()
    expect(await queued).toEqual({ kind: 'cancelled' })
    expect(await running).toEqual({ kind: 'cancelled' })
    expect(fake.workers[0]?.sent.map((m) => m.kind)).toEqual(['request', 'cancel'])
    expect(pool.pending).toBe(0)
  })

  it("forwards progress; a refused config is `invalid`, an error is that file's failure", async () => {
    const pool = new FleetPool(1, fakeWorkers().create)
    const seen: number[] = []
    const good = pool.evaluate({
      ...task('good'),
      onProgress: (done, total) => seen.push(done / total),
    })
    const bad = pool.evaluate(task('bad'))
    const oops = pool.evaluate(task('oops'))
    expect(outcomeOf(await good)).toMatchObject({ failure: { message: '4 bytes' } })
    expect(seen).toEqual([0.5])
    expect(await bad).toEqual({ kind: 'invalid', issues: [{ path: 'window', message: 'no' }] })
    expect(outcomeOf(await oops)).toEqual({
      kind: 'failed',
      failure: { name: 'oops', message: 'internal error: bug' },
    })
  })

  it('hands a picked file to the worker as its Blob (the worker reads it, not the page)', async () => {
    const pool = new FleetPool(1, fakeWorkers().create)
    const result = await pool.evaluate({ ...task('blob'), read: async () => new Blob(['abcd']) })
    expect(result).toMatchObject({
      kind: 'evaluated',
      outcomes: [{ failure: { message: '4 bytes' } }],
    })
  })

  it('fails a file whose bytes cannot be read, and goes on', async () => {
    const pool = new FleetPool(1, fakeWorkers().create)
    const bad = pool.evaluate({ ...task('x'), read: () => Promise.reject(new Error('gone')) })
    const good = pool.evaluate(task('y'))
    expect(await bad).toMatchObject({
      kind: 'evaluated',
      outcomes: [{ failure: { message: 'cannot read: gone' } }],
    })
    expect(await good).toMatchObject({ kind: 'evaluated' })
  })
})
