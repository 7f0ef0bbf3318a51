import { describe, expect, it } from 'vitest'
import { EngineClient, type WorkerLike } from '../../worker/client.ts'
import type { FromWorker, ToWorker } from '../../worker/protocol.ts'
import { setEngineClient } from '../engine.ts'
import { useAppStore } from '../store.ts'
import { workingConfigOf } from './config.ts'

const preset = { id: 'recommended', name: 'recommended', description: '', config: { version: 1 } }

/** A worker that answers `describe` on the next tick, and lets a test ask `describe` itself. */
function install(): { sent: ToWorker[]; client: EngineClient } {
  const sent: ToWorker[] = []
  const make = (): WorkerLike => {
    const worker: WorkerLike = {
      onmessage: null,
      onerror: null,
      terminate: () => undefined,
      postMessage: (message) => {
        sent.push(message)
        if (message.type !== 'describe') return
        const reply: FromWorker = {
          type: 'described',
          id: message.id,
          presets: [preset],
          strategies: [],
          configSchema: {},
        }
        setTimeout(() => worker.onmessage?.({ data: reply } as MessageEvent<FromWorker>), 0)
      },
    }
    return worker
  }
  const client = new EngineClient(make)
  setEngineClient(client)
  return { sent, client }
}

describe('config slice', () => {
  it('asks again when another panel made its describe request stale', async () => {
    const { sent, client } = install()
    const loading = useAppStore.getState().loadCatalog()
    // Another feature asks on the same channel right away: ours is superseded.
    const other = client.describe()
    await loading
    await other.promise
    expect(sent.filter((m) => m.type === 'describe').length).toBeGreaterThanOrEqual(3)
    expect(useAppStore.getState().catalogStatus).toBe('ready')
    expect(useAppStore.getState().catalog?.presets).toEqual([preset])

    // The working config is the selected preset's until the user edits it.
    expect(workingConfigOf(useAppStore.getState())).toEqual({ version: 1 })
    useAppStore.setState({ customConfig: { version: 1, name: 'mine' } })
    expect(workingConfigOf(useAppStore.getState())).toEqual({ version: 1, name: 'mine' })
    useAppStore.setState({ customConfig: null })

    // Asked once: a second call reuses the answer.
    const count = sent.length
    await useAppStore.getState().loadCatalog()
    expect(sent.length).toBe(count)
  })
})
