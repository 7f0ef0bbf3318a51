import { describe, expect, it } from 'vitest'
import type { FromFleetWorker, ToFleetWorker } from './fleet-protocol.ts'
import { FleetPool, type FleetWorkerLike } from './pool.ts'

/** A fake worker: answers each file after a tick; `crash*` files kill it, `slow*` wait for cancel. */
function fakeWorkers() {
  let busy = 0
  let maxBusy = 0
  let created = 0
  const create = (): FleetWorkerLike => {
    created++
    const w: FleetWorkerLike = {
      onmessage: null,
      onerror: null,
      terminate: () => undefined,
      postMessage: (m: ToFleetWorker) => {
        const reply = (data: FromFleetWorker) =>
          w.onmessage?.({ data } as MessageEvent<FromFleetWorker>)
        if (m.type === 'cancel') return setTimeout(() => reply({ type: 'cancelled', id: m.id }), 1)
        busy++
        maxBusy = Math.max(maxBusy, busy)
        setTimeout(() => {
          if (m.name.startsWith('slow')) return
          busy--
          if (m.name.startsWith('crash'))
            return w.onerror?.({ message: 'boom', preventDefault: () => undefined } as ErrorEvent)
          reply({
            type: 'evaluated',
            id: m.id,
            outcomes: [
              {
                kind: 'failed',
                failure: {
                  name: m.name,
                  message: `${m.bytes instanceof Blob ? m.bytes.size : m.bytes.byteLength} bytes`,
                },
              },
            ],
          })
        }, 2)
      },
    }
    return w
  }
  return { create, stats: () => ({ maxBusy, created }) }
}

const task = (name: string) => ({
  name,
  read: async () => new TextEncoder().encode(name).buffer as ArrayBuffer,
  config: null,
  preset: 'recommended',
})

describe('FleetPool', () => {
  it('runs every file, at most `size` at once; a crashed worker fails only its file', async () => {
    const fake = fakeWorkers()
    const pool = new FleetPool(2, fake.create)
    const names = ['a', 'bb', 'crash', 'dddd', 'eeeee', 'ffffff']
    const results = await Promise.all(names.map((n) => pool.evaluate(task(n))))
    expect(results.map((r) => (r.kind === 'evaluated' ? r.outcomes[0] : r))).toEqual(
      names.map((n) =>
        n === 'crash'
          ? { kind: 'failed', failure: { name: n, message: 'worker failed: boom' } }
          : { kind: 'failed', failure: { name: n, message: `${n.length} bytes` } },
      ),
    )
    expect(fake.stats().maxBusy).toBe(2)
    // Two workers, plus the fresh one that replaced the crashed worker.
    expect(fake.stats().created).toBe(3)
    expect(pool.pending).toBe(0)
  })

  it('cancelAll settles the queue and the files under way as cancelled', async () => {
    const fake = fakeWorkers()
    const pool = new FleetPool(1, fake.create)
    const running = pool.evaluate(task('slow'))
    const queued = pool.evaluate(task('next'))
    await new Promise((r) => setTimeout(r, 5))
    pool.cancelAll()
    expect(await queued).toEqual({ kind: 'cancelled' })
    expect(await running).toEqual({ kind: 'cancelled' })
    expect(pool.pending).toBe(0)
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
