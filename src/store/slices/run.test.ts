import { afterEach, describe, expect, it } from 'vitest'
import { PRESET_IDS as CONFIG_PRESET_IDS } from '../../config/presets.ts'
import { EngineClient, type WorkerLike } from '../../worker/client.ts'
import type { FromWorker, RunSummary, ToWorker } from '../../worker/protocol.ts'
import { setEngineClient } from '../engine.ts'
import { useAppStore } from '../store.ts'
import { PRESET_IDS } from './run.ts'

function summary(configName: string): RunSummary {
  return {
    configName,
    tokenizer: 'o200k_base',
    exact: true,
    tokens: { before: 10, after: 5, window: 100, reservedOutput: 10, buffer: 0, usable: 90 },
    budget: { before: { user: 10 }, after: { user: 5 } },
    groups: {
      ids: [],
      kinds: [],
      status: [],
      tokensBefore: new Float64Array(),
      tokensAfter: new Float64Array(),
      roles: [],
      tools: [],
      resources: [],
      turns: new Int32Array(),
      firstMessage: new Int32Array(),
      messageCounts: new Int32Array(),
    },
    upstream: [],
    accounting: {
      figure: 'estimated context of the next model call (our count)',
      reconciliation: {
        source: 'estimated',
        reportedBy: null,
        provider: 'openai',
        rules: '',
        calls: 0,
        dropped: 0,
        prefixTokens: 0,
        scale: 1,
        prefixFrom: 'default',
        scaleFrom: 'fixed',
        medianAbsError: null,
        p90AbsError: null,
        steps: [],
        flagged: [],
        flaggedCalls: [],
        ignored: [],
        summary: 'no usage reported in this transcript',
        lastCall: null,
      },
      price: null,
      caching: 'on',
    },
    triggers: [],
    decisions: [],
    decisionCount: 0,
    noChange: null,
    changes: 1,
    invariants: { ok: true, checks: [] },
    steps: [],
    replay: null,
    replayPending: false,
    risk: { usedLater: 0, tokens: 0, items: [], itemCount: 0 },
    ms: 1,
  }
}

/** A worker that answers each `run` on the next tick: a summary, or issues for preset "bad". */
function fakeWorker(sent: ToWorker[]): WorkerLike {
  const worker: WorkerLike = {
    onmessage: null,
    onerror: null,
    terminate: () => undefined,
    postMessage: (message) => {
      sent.push(message)
      if (message.type !== 'run') return
      const reply: FromWorker =
        message.preset === 'bad'
          ? {
              type: 'configInvalid',
              id: message.id,
              issues: [{ path: 'pipeline[0]', message: 'no' }],
            }
          : { type: 'ran', id: message.id, summary: summary(message.preset ?? '?') }
      setTimeout(() => worker.onmessage?.({ data: reply } as MessageEvent<FromWorker>), 0)
    },
  }
  return worker
}

function install(): ToWorker[] {
  const sent: ToWorker[] = []
  setEngineClient(new EngineClient(() => fakeWorker(sent)))
  return sent
}

function pretendLoaded(): void {
  useAppStore.setState({
    status: 'loaded',
    progress: null,
    report: {} as never,
  })
}

afterEach(() => {
  useAppStore.getState().clearRun()
  useAppStore.setState({ status: 'idle', report: null, selectedPreset: 'recommended' })
})

describe('run slice', () => {
  it('knows the same presets as src/config, in the same order', () => {
    expect([...PRESET_IDS]).toEqual([...CONFIG_PRESET_IDS])
  })

  it('only selects the preset while nothing is loaded (the run follows the exact count)', async () => {
    const sent = install()
    await useAppStore.getState().runPreset('falai')
    expect(useAppStore.getState().selectedPreset).toBe('falai')
    expect(useAppStore.getState().runStatus).toBe('idle')
    expect(sent.filter((m) => m.type === 'run')).toEqual([])
  })

  it('runs a preset and keeps only the newest summary', async () => {
    install()
    pretendLoaded()
    const first = useAppStore.getState().runPreset('lip')
    expect(useAppStore.getState().runStatus).toBe('running')
    const second = useAppStore.getState().runPreset('opencode')
    await Promise.all([first, second])
    const state = useAppStore.getState()
    expect(state.runStatus).toBe('done')
    expect(state.summary?.configName).toBe('opencode')
    expect(state.selectedPreset).toBe('opencode')
  })

  it('reports config issues', async () => {
    install()
    pretendLoaded()
    await useAppStore.getState().runPreset('bad' as never)
    const state = useAppStore.getState()
    expect(state.runStatus).toBe('error')
    expect(state.configIssues).toEqual([{ path: 'pipeline[0]', message: 'no' }])
  })
})
