import { afterEach, describe, expect, it } from 'vitest'
import { shareLink } from './selectors-export.ts'
import { EngineClient } from '../worker/client.ts'
import { fakeWorker } from '../worker/fake-worker.testing.ts'
import { createLabStore } from './store.ts'
import { decodeUrlState } from './url.ts'

/** A lab of its own (a fake worker that never answers: these tests send no request). */
const lab = createLabStore(new EngineClient(fakeWorker().create))

const initial = lab.getState()
afterEach(() => lab.setState(initial, true))

describe('shareLink', () => {
  it('names the preset while it is unedited, and nothing else', async () => {
    lab.setState({
      selectedPreset: 'lip',
      customConfig: null,
      query: 'secret',
      chip: 'stubbed',
    })
    const url = new URL(await shareLink(lab, 'http://localhost:4173/app/?x=1#chip=kept'))
    expect(url.pathname).toBe('/app/')
    expect(url.search).toBe('?x=1')
    expect(url.hash).toBe('#preset=lip')
  })

  it('carries an edited config, compressed, and it decodes back to the same config', async () => {
    const config = { version: 1, name: 'mine', window: { contextTokens: 50_000 } }
    lab.setState({ selectedPreset: 'opencode', customConfig: config, query: 'q' })
    const url = new URL(await shareLink(lab, 'http://localhost:4173/'))
    const params = new URLSearchParams(url.hash.slice(1))
    expect([...params.keys()].sort()).toEqual(['cfg', 'preset'])
    expect(params.get('cfg')).toMatch(/^z\./)
    expect(await decodeUrlState(url.hash)).toEqual({ preset: 'opencode', config })
  })
})
