import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { RunView } from '../worker/protocol.ts'
import { EngineClient } from '../worker/client.ts'
import { fakeWorker } from '../worker/fake-worker.testing.ts'
import { createLabStore } from './store.ts'

import {
  decodeConfig,
  decodeUrlState,
  DEFAULT_URL_STATE,
  encodeConfig,
  encodeConfigSync,
  encodeUrlState,
  fromBase64Url,
  toBase64Url,
  urlStateOf,
  withoutSecrets,
  type UrlState,
} from './url.ts'
import { restoreUrlState, startUrlSync } from './urlSync.ts'

/** A lab of its own (a fake worker that never answers: these tests send no request). */
const lab = createLabStore(new EngineClient(fakeWorker().create))

const CONFIG = {
  version: 1,
  name: 'mine',
  window: { tokens: 200000, reservedOutput: 8000 },
  pipeline: [{ strategy: 'stub-tool-results', keepRecent: 3, note: 'ünïcødé ✓ & = # ?' }],
}

const FULL: UrlState = {
  preset: 'lip',
  config: CONFIG,
  chip: 'stubbed',
  query: 'tool:read tokens>1000 -role:user /a&b=c#d/',
  brush: { from: 3, to: 40 },
  selected: 'gmsg_01:x',
  drawerOpen: true,
  detailTab: 'why',
}

describe('base64url', () => {
  it('round-trips every byte value and uses only URL-safe characters', () => {
    const bytes = Uint8Array.from({ length: 256 * 3 }, (_, i) => i % 256)
    const text = toBase64Url(bytes)
    expect(text).toMatch(/^[A-Za-z0-9_-]+$/)
    expect(fromBase64Url(text)).toEqual(bytes)
  })
  it('rejects characters outside the alphabet', () => {
    expect(fromBase64Url('ab+/')).toBeNull()
  })
})

describe('config token', () => {
  it('round-trips compressed (deflate-raw)', async () => {
    const token = await encodeConfig(CONFIG, { compress: true })
    expect(token.startsWith('z.')).toBe(true)
    expect(await decodeConfig(token)).toEqual(CONFIG)
  })
  it('round-trips as plain base64url JSON when compression is unavailable', async () => {
    const token = await encodeConfig(CONFIG, { compress: false })
    expect(token).toBe(encodeConfigSync(CONFIG))
    expect(token.startsWith('j.')).toBe(true)
    expect(await decodeConfig(token)).toEqual(CONFIG)
  })
  it('falls back to plain JSON when CompressionStream is missing', async () => {
    vi.stubGlobal('CompressionStream', undefined)
    try {
      const token = await encodeConfig(CONFIG)
      expect(token.startsWith('j.')).toBe(true)
      expect(await decodeConfig(token)).toEqual(CONFIG)
    } finally {
      vi.unstubAllGlobals()
    }
  })
  it('compresses a repetitive config', async () => {
    const big = { pipeline: Array.from({ length: 40 }, () => CONFIG.pipeline[0]) }
    const z = await encodeConfig(big, { compress: true })
    expect(z.length).toBeLessThan(encodeConfigSync(big).length / 4)
  })
  it('ignores a damaged token', async () => {
    const token = await encodeConfig(CONFIG, { compress: true })
    expect(await decodeConfig(token.slice(0, 12))).toBeUndefined()
    expect(await decodeConfig('j.%%%')).toBeUndefined()
    expect(await decodeConfig('x.abc')).toBeUndefined()
  })
})

describe('fragment', () => {
  it.each([true, false])('round-trips every field (compress=%s)', async (compress) => {
    const fragment = await encodeUrlState(FULL, { compress })
    expect(await decodeUrlState(`#${fragment}`)).toEqual(FULL)
  })

  it('leaves defaults out: an untouched app has an empty fragment', async () => {
    expect(await encodeUrlState(DEFAULT_URL_STATE)).toBe('')
    expect(await decodeUrlState('')).toEqual({})
  })

  it('names a non-default preset without a config', async () => {
    const fragment = await encodeUrlState({ ...DEFAULT_URL_STATE, preset: 'opencode' })
    expect(fragment).toBe('preset=opencode')
    expect(await decodeUrlState(fragment)).toEqual({ preset: 'opencode' })
  })

  it('drops invalid fields and keeps the rest', async () => {
    const decoded = await decodeUrlState(
      'preset=nope&chip=weird&tab=html&brush=9-2&sel=g1&drawer=1&q=x',
    )
    expect(decoded).toEqual({ brush: null, selected: 'g1', drawerOpen: true, query: 'x' })
  })

  it('does not open the drawer without a selection', () => {
    const state = urlStateOf({
      selectedPreset: 'recommended',
      customConfig: null,
      chip: 'all',
      query: '',
      brush: null,
      selectedGroup: null,
      drawerOpen: true,
      detailTab: 'pretty',
    })
    expect(state.drawerOpen).toBe(false)
  })
})

describe('never transcript text', () => {
  const SECRET = 'the-secret-transcript-line-42'

  it('urlStateOf copies only the mirrored fields out of a full store state', async () => {
    lab.setState({
      draft: SECRET,
      lastInput: { text: SECRET, origin: 'paste' },
      preview: [{ role: 'user', text: SECRET } as never],
      fileName: SECRET,
      chip: 'kept',
      selectedGroup: 'g3',
    })
    const state = urlStateOf(lab.getState())
    expect(Object.keys(state).sort()).toEqual(Object.keys(DEFAULT_URL_STATE).sort())
    const fragment = await encodeUrlState(state)
    expect(JSON.stringify(state)).not.toContain(SECRET)
    expect(fragment).not.toContain(SECRET)
    expect(decodeURIComponent(fragment)).not.toContain(SECRET)
    expect(fragment).toBe('chip=kept&sel=g3')
  })
})

describe('never credentials', () => {
  it('drops key-like fields of a config at any depth before encoding', async () => {
    const config = {
      ...CONFIG,
      summarizer: { url: 'http://localhost:1234', apiKey: 'sk-xyz', headers: { a: 'b' } },
      pipeline: [{ strategy: 's', params: { Authorization: 'Bearer q', keep: 2 } }],
    }
    expect(withoutSecrets(config)).toEqual({
      ...CONFIG,
      summarizer: { url: 'http://localhost:1234' },
      pipeline: [{ strategy: 's', params: { keep: 2 } }],
    })
    const fragment = await encodeUrlState({ ...DEFAULT_URL_STATE, config }, { compress: false })
    const decoded = await decodeUrlState(fragment)
    expect(JSON.stringify(decoded)).not.toContain('sk-xyz')
    expect(JSON.stringify(decoded)).not.toContain('Bearer')
  })
})

function summaryWith(ids: string[]): RunView {
  return { groups: { ids } } as unknown as RunView
}

describe('restore and sync', () => {
  beforeEach(reset)
  afterEach(reset)
  function reset() {
    vi.unstubAllGlobals()
    vi.useRealTimers()
    lab.setState({
      status: 'idle',
      summary: null,
      selectedPreset: 'recommended',
      customConfig: null,
      chip: 'all',
      query: '',
      brush: null,
      selectedGroup: null,
      drawerOpen: false,
      detailTab: 'pretty',
    })
  }

  it('applies the config and filters at once, the selection once the run has the group', async () => {
    const fragment = await encodeUrlState(FULL)
    const { settled: done } = await restoreUrlState(fragment, lab)
    expect(lab.getState().customConfig).toEqual(CONFIG)
    const s = lab.getState()
    expect(s.selectedPreset).toBe('lip')
    expect(s.chip).toBe('stubbed')
    expect(s.query).toBe(FULL.query)
    expect(s.detailTab).toBe('why')
    expect(s.selectedGroup).toBeNull()

    lab.setState({ summary: summaryWith(['g0', 'gmsg_01:x']) })
    await done
    const after = lab.getState()
    expect(after.selectedGroup).toBe('gmsg_01:x')
    expect(after.drawerOpen).toBe(true)
    expect(after.brush).toEqual({ from: 3, to: 40 })
  })

  it('skips a selection the run does not have', async () => {
    const { settled: done } = await restoreUrlState('sel=gone&drawer=1', lab)
    lab.setState({ summary: summaryWith(['g0']) })
    await done
    expect(lab.getState().selectedGroup).toBeNull()
    expect(lab.getState().drawerOpen).toBe(false)
  })

  it('mirrors store changes into the fragment with replaceState, debounced', async () => {
    vi.useFakeTimers()
    const replaceState = vi.fn()
    vi.stubGlobal('location', { pathname: '/app/', search: '?x=1', hash: '' })
    vi.stubGlobal('history', { state: null, replaceState })
    const stop = startUrlSync(lab, 100)
    lab.getState().setChip('excluded')
    lab.getState().setQuery('tool:bash')
    lab.getState().selectGroup('g7', { open: true })
    await vi.advanceTimersByTimeAsync(150)
    stop()
    expect(replaceState).toHaveBeenCalledTimes(1)
    expect(replaceState).toHaveBeenLastCalledWith(
      null,
      '',
      '/app/?x=1#chip=excluded&q=tool%3Abash&sel=g7&drawer=1',
    )
  })
})
