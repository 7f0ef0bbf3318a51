import { describe, expect, it, vi } from 'vitest'
import { PRESET_IDS as CONFIG_PRESET_IDS } from '../../config/presets.ts'
import { EngineClient } from '../../worker/client.ts'
import { fakeWorker, type FakeAnswer } from '../../worker/fake-worker.testing.ts'
import type { Params, RunSummary } from '../../worker/protocol.ts'
import { createLabStore, type LabStore } from '../store.ts'
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
    decisions: {
      run: 0,
      length: 0,
      kinds: [],
      kind: new Uint8Array(),
      strategies: [],
      strategy: new Uint16Array(),
      reasons: [],
      reason: new Uint16Array(),
      step: new Int32Array(),
      groupId: [],
      tokensBefore: new Float64Array(),
      tokensAfter: new Float64Array(),
      round: new Int32Array(),
      fixed: {},
    },
    decisionCount: 0,
    noChange: null,
    changes: 1,
    invariants: { ok: true, checks: [] },
    steps: [],
    replay: null,
    replayPending: false,
    settling: false,
    risk: { usedLater: 0, tokens: 0, items: [], itemCount: 0 },
    ms: 1,
  }
}

/** A lab whose worker answers each `run` (a summary, or issues for preset "bad") and `replay`. */
function install() {
  const worker = fakeWorker((request, params) => {
    if (request === 'replay') return null
    if (request !== 'run') return null
    const { preset } = params as Params<'run'>
    return (
      preset === 'bad'
        ? { invalid: [{ path: 'pipeline[0]', message: 'no' }] }
        : { reply: summary(preset ?? '?') }
    ) as FakeAnswer<typeof request>
  })
  const lab = createLabStore(new EngineClient(worker.create))
  return { worker, lab }
}

function pretendLoaded(lab: LabStore): void {
  lab.setState({ status: 'loaded', progress: null, report: {} as never })
}

describe('run slice', () => {
  it('offers the presets src/config defines (one list, not a copy)', () => {
    expect(PRESET_IDS).toBe(CONFIG_PRESET_IDS)
  })

  it('only selects the preset while nothing is loaded (the run follows the exact count)', async () => {
    const { worker, lab } = install()
    await lab.getState().runPreset('falai')
    expect(lab.getState().selectedPreset).toBe('falai')
    expect(lab.getState().runStatus).toBe('idle')
    expect(worker.requests()).toEqual([])
  })

  it('runs a preset and keeps only the newest summary, then asks for its replay', async () => {
    const { worker, lab } = install()
    pretendLoaded(lab)
    const first = lab.getState().runPreset('lip')
    expect(lab.getState().runStatus).toBe('running')
    const second = lab.getState().runPreset('opencode')
    await Promise.all([first, second])
    const state = lab.getState()
    expect(state.runStatus).toBe('done')
    expect(state.summary?.configName).toBe('opencode')
    expect(state.replayPending).toBe(true)
    expect(state.selectedPreset).toBe('opencode')
    // The first run was cancelled; the replay is asked once, for the run on screen.
    expect(worker.sent.filter((m) => m.kind === 'cancel').map((m) => m.id)).toContain(1)
    const replays = worker.requests().filter((m) => m.request === 'replay')
    expect(replays).toHaveLength(1)
    const replay = {
      index: new Int32Array([1]),
      before: new Float64Array([9]),
      after: new Float64Array([4]),
      reported: new Float64Array([Number.NaN]),
      fired: [[]],
      costBefore: new Float64Array([0]),
      costAfter: new Float64Array([0]),
      rewrites: new Float64Array([0]),
      cost: {} as never,
    }
    worker.reply(replays[0]?.id ?? -1, 'replay', replay)
    await Promise.resolve()
    await Promise.resolve()
    expect(lab.getState().replay?.after[0]).toBe(4)
    expect(lab.getState().replayPending).toBe(false)
    // The summary on screen is not replaced: views that do not draw the replay stay put.
    expect(lab.getState().summary).toBe(state.summary)
    expect(lab.getState().replayProgress).toBeNull()
  })

  it('asks for a deferred risk before the replay, without replacing the summary', async () => {
    const risk = { usedLater: 2, tokens: 300, items: [], itemCount: 0 }
    const worker = fakeWorker((request) => {
      if (request === 'run') return { reply: { ...summary('lip'), risk: null } } as never
      if (request === 'risk') return { reply: risk } as never
      return null
    })
    const lab = createLabStore(new EngineClient(worker.create))
    pretendLoaded(lab)
    await lab.getState().runPreset('lip')
    // The budget is on screen before the risk: the risk fact shows "checking" meanwhile.
    expect(lab.getState().summary?.configName).toBe('lip')
    expect(lab.getState().risk).toBeNull()
    const shown = lab.getState().summary
    await vi.waitFor(() => expect(lab.getState().risk).toEqual(risk))
    expect(lab.getState().summary).toBe(shown)
    // The risk, then the replay: one after the other in the run's lane.
    await vi.waitFor(() =>
      expect(worker.requests().map((m) => m.request)).toEqual(['run', 'risk', 'replay']),
    )
  })

  it('settles a first-round summary after a quiet moment: the idempotence check fills in', async () => {
    const risk = { usedLater: 0, tokens: 0, items: [], itemCount: 0 }
    const check = { id: 'idempotent', ok: true, detail: 'changes nothing more', offenders: [] }
    const invariants = { ok: true, checks: [check] }
    const worker = fakeWorker((request) => {
      if (request === 'run')
        return { reply: { ...summary('lip'), settling: true, risk: null } } as never
      if (request === 'risk') return { reply: risk } as never
      if (request === 'settle') return { reply: { kind: 'same', invariants, ms: 1 } } as never
      return null
    })
    const lab = createLabStore(new EngineClient(worker.create))
    pretendLoaded(lab)
    await lab.getState().runPreset('lip')
    const shown = lab.getState().summary
    expect(shown?.settling).toBe(true)
    await vi.waitFor(() => expect(lab.getState().summary?.settling).toBe(false))
    const settled = lab.getState().summary
    expect(settled?.invariants).toEqual(invariants)
    // Every other figure is the first round's, unchanged.
    expect(settled?.groups).toBe(shown?.groups)
    expect(settled?.tokens).toBe(shown?.tokens)
    await vi.waitFor(() =>
      expect(worker.requests().map((m) => m.request)).toEqual(['run', 'risk', 'settle', 'replay']),
    )
  })

  it('replaces the summary when the idempotence round changed the result', async () => {
    const settledSummary = { ...summary('lip'), changes: 7, risk: null }
    const risk = { usedLater: 1, tokens: 9, items: [], itemCount: 0 }
    const worker = fakeWorker((request) => {
      if (request === 'run') return { reply: { ...summary('lip'), settling: true } } as never
      if (request === 'risk') return { reply: risk } as never
      if (request === 'settle')
        return { reply: { kind: 'changed', summary: settledSummary } } as never
      return null
    })
    const lab = createLabStore(new EngineClient(worker.create))
    pretendLoaded(lab)
    await lab.getState().runPreset('lip')
    await vi.waitFor(() => expect(lab.getState().summary?.changes).toBe(7))
    // Its risk is asked again (the settled result is another one).
    await vi.waitFor(() =>
      expect(worker.requests().map((m) => m.request)).toEqual(['run', 'settle', 'risk', 'replay']),
    )
    expect(lab.getState().risk).toEqual(risk)
  })

  it('an edit drops the follow-ups of the run on screen; an invalid edit asks for them again', async () => {
    const worker = fakeWorker((request, params) => {
      if (request === 'run') {
        const bad = (params as Params<'run'>).config === 'bad'
        return (
          bad
            ? { invalid: [{ path: 'window', message: 'no' }] }
            : { reply: { ...summary('lip'), settling: true } }
        ) as never
      }
      if (request === 'risk') return { reply: summary('lip').risk } as never
      return null
    })
    const lab = createLabStore(new EngineClient(worker.create))
    pretendLoaded(lab)
    await lab.getState().runPreset('lip')
    await vi.waitFor(() => expect(lab.getState().risk).not.toBeNull())
    // Typing during the quiet moment: no settle starts for a run about to be replaced.
    lab.getState().setConfig('bad')
    await vi.waitFor(() => expect(lab.getState().runStatus).toBe('error'))
    const kinds = () => worker.requests().map((m) => m.request)
    expect(kinds().filter((k) => k === 'settle')).toHaveLength(0)
    // The edit ran nothing, so the run on screen still needs its idempotence check.
    await vi.waitFor(() => expect(kinds().filter((k) => k === 'settle')).toHaveLength(1))
    expect(lab.getState().summary?.settling).toBe(true)
  })

  it('reports config issues', async () => {
    const { lab } = install()
    pretendLoaded(lab)
    await lab.getState().runPreset('bad' as never)
    const state = lab.getState()
    expect(state.runStatus).toBe('error')
    expect(state.configIssues).toEqual([{ path: 'pipeline[0]', message: 'no' }])
  })

  it('keeps two labs apart', async () => {
    const one = install().lab
    const two = install().lab
    pretendLoaded(one)
    await one.getState().runPreset('lip')
    expect(one.getState().summary?.configName).toBe('lip')
    expect(two.getState().summary).toBeNull()
    expect(two.getState().engine).not.toBe(one.getState().engine)
  })
})
