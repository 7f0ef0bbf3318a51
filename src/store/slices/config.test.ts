import { describe, expect, it } from 'vitest'
import { EngineClient } from '../../worker/client.ts'
import { fakeWorker, type FakeAnswer } from '../../worker/fake-worker.testing.ts'
import { createLabStore } from '../store.ts'
import { workingConfigOf } from './config.ts'

const preset = { id: 'recommended', name: 'recommended', description: '', config: { version: 1 } }

describe('config slice', () => {
  it('asks the worker once; a load meanwhile does not make the catalog stale', async () => {
    const worker = fakeWorker(
      (request) =>
        (request === 'describe'
          ? { reply: { presets: [preset], strategies: [], configSchema: {} } }
          : null) as FakeAnswer<typeof request>,
    )
    const lab = createLabStore(new EngineClient(worker.create))
    const loading = lab.getState().loadCatalog()
    // A transcript starts loading at the same moment: the catalog does not depend on it.
    void lab.getState().engine.request('load', { text: '{}' })
    await loading
    expect(worker.sent.filter((m) => m.kind === 'cancel')).toEqual([])
    expect(lab.getState().catalogStatus).toBe('ready')
    expect(lab.getState().catalog?.presets).toEqual([preset])

    // The working config is the selected preset's until the user edits it.
    expect(workingConfigOf(lab.getState())).toEqual({ version: 1 })
    lab.setState({ customConfig: { version: 1, name: 'mine' } })
    expect(workingConfigOf(lab.getState())).toEqual({ version: 1, name: 'mine' })
    lab.setState({ customConfig: null })

    // Asked once: a second call reuses the answer.
    const count = worker.sent.length
    await lab.getState().loadCatalog()
    expect(worker.sent.length).toBe(count)
  })

  it('says why when the worker fails', async () => {
    const worker = fakeWorker(
      (request) =>
        (request === 'describe' ? { error: 'boom' } : null) as FakeAnswer<typeof request>,
    )
    const lab = createLabStore(new EngineClient(worker.create))
    await lab.getState().loadCatalog()
    expect(lab.getState().catalogStatus).toBe('error')
    expect(lab.getState().catalogError).toBe('boom')
  })
})
