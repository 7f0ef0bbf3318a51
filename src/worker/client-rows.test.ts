import { describe, expect, it } from 'vitest'
import { EngineClient, isStale, type WorkerLike } from './client.ts'
import type { FromWorker, GroupDetail, ToWorker } from './protocol.ts'

class FakeWorker implements WorkerLike {
  readonly posted: ToWorker[] = []
  onmessage: ((event: MessageEvent<FromWorker>) => void) | null = null
  onerror: ((event: ErrorEvent) => void) | null = null
  postMessage(message: ToWorker): void {
    this.posted.push(message)
  }
  terminate(): void {}
  reply(message: FromWorker): void {
    this.onmessage?.({ data: message } as MessageEvent<FromWorker>)
  }
}

const detail = (groupId: string) => ({ groupId }) as GroupDetail

describe('EngineClient detail channels', () => {
  it('the table’s rows channel and the drawer’s detail channel never make each other stale', async () => {
    const worker = new FakeWorker()
    const client = new EngineClient(() => worker)
    const drawer = client.detail('g1', 2000)
    const row = client.detail('g2', 300, 'rows')
    expect(worker.posted.filter((m) => m.type === 'cancel')).toEqual([])
    worker.reply({ type: 'detailed', id: drawer.id, detail: detail('g1') })
    worker.reply({ type: 'detailed', id: row.id, detail: detail('g2') })
    await expect(drawer.promise).resolves.toEqual({ groupId: 'g1' })
    await expect(row.promise).resolves.toEqual({ groupId: 'g2' })
  })

  it('a newer request of the same channel still makes the older stale', async () => {
    const worker = new FakeWorker()
    const client = new EngineClient(() => worker)
    const first = client.detail('g1', 300, 'rows')
    client.detail('g2', 300, 'rows')
    await expect(first.promise).rejects.toSatisfy(isStale)
  })
})
