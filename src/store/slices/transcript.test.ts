import { describe, expect, it, vi } from 'vitest'
import type { InspectReport } from '../../engine/inspect-types.ts'
import { EngineClient } from '../../worker/client.ts'
import { fakeWorker, type FakeAnswer } from '../../worker/fake-worker.testing.ts'
import type { Loaded, RunSummary } from '../../worker/protocol.ts'
import { createLabStore } from '../store.ts'

const FAILED: Loaded = {
  detection: null,
  candidates: [],
  formats: [],
  warnings: [],
  warningCount: 0,
  error: { line: 1, offset: 9, message: 'not a transcript' },
  report: null,
  preview: [],
  ms: 1,
  items: null,
  item: null,
  facts: null,
}

/** A lab whose worker fails every load (a garbage paste) and answers nothing else. */
function failingLab() {
  const worker = fakeWorker((request) =>
    request === 'load' ? ({ reply: FAILED } as FakeAnswer<typeof request>) : null,
  )
  return { worker, lab: createLabStore(new EngineClient(worker.create)) }
}

describe('transcript slice: a failed load (issue 15)', () => {
  it('keeps the analysis on screen and only sets the error', async () => {
    const { worker, lab } = failingLab()
    const report = { marker: 'the sample' } as unknown as InspectReport
    lab.setState({
      status: 'loaded',
      report,
      exactReport: report,
      fileName: 'coding-session.jsonl',
      origin: 'sample',
      draft: 'garbage {',
    })
    await lab.getState().loadDraft()
    const s = lab.getState()
    expect(worker.requests().some((m) => m.request === 'load')).toBe(true)
    expect(s.report).toBe(report)
    expect(s.exactReport).toBe(report)
    expect(s.fileName).toBe('coding-session.jsonl')
    expect(s.origin).toBe('sample')
    expect(s.status).toBe('loaded')
    expect(s.error?.message).toBe('not a transcript')
    expect(s.draft).toBe('garbage {')
  })

  it('with nothing on screen, the failure is the state', async () => {
    const { worker, lab } = failingLab()
    await lab.getState().loadText('garbage', { origin: 'paste' })
    const s = lab.getState()
    expect(s.status).toBe('error')
    expect(s.report).toBeNull()
    expect(s.error?.line).toBe(1)
    // Nothing parsed: no count, no run.
    expect(worker.requests().map((m) => m.request)).toEqual(['load'])
  })
})

describe('transcript slice: estimate-first (issue 14e) in load → count → run → replay', () => {
  const report = (tokenizer: string) =>
    ({ tokens: { tokenizer }, marker: tokenizer }) as unknown as InspectReport
  const ran = (tokenizer: string) => ({ tokenizer, configName: 'x' }) as unknown as RunSummary

  it('runs on the estimate right after the load, and again once the exact count is in', async () => {
    const worker = fakeWorker((request) => {
      if (request === 'load') {
        return { reply: { ...FAILED, error: null, report: report('estimate') } } as FakeAnswer<
          typeof request
        >
      }
      return null
    })
    const lab = createLabStore(new EngineClient(worker.create))
    const loading = lab.getState().loadText('{}', { origin: 'paste' })
    await waitFor(() => worker.requests().some((m) => m.request === 'run'))
    // The count was asked first (a count supersedes runs sent before it), then the first run.
    expect(worker.requests().map((m) => m.request)).toEqual(['load', 'count', 'run'])
    // The budget can paint: the instant report is in while the count is under way.
    expect(lab.getState().report).toMatchObject({ marker: 'estimate' })
    expect(lab.getState().progress?.phase).toBe('tokenizer')
    const [, count, run] = worker.requests()
    // The run lands first, priced with the estimate: its follow-ups are asked (the risk first,
    // then the replay).
    worker.reply(run?.id ?? -1, 'run', ran('estimate'))
    await waitFor(() => worker.requests().some((m) => m.request === 'risk'))
    expect(lab.getState().summary?.tokenizer).toBe('estimate')
    // The exact count lands: the run on the estimate is replaced by one on exact counts.
    worker.reply(count?.id ?? -1, 'count', {
      tokenizer: 'o200k_base',
      report: report('o200k_base'),
      ms: 1,
    })
    await loading
    expect(lab.getState().exactReport).toMatchObject({ marker: 'o200k_base' })
    expect(lab.getState().progress).toBeNull()
    expect(worker.requests().filter((m) => m.request === 'run')).toHaveLength(2)
  })

  it('a run priced with the estimate that lands after the count runs again', async () => {
    const worker = fakeWorker((request) =>
      request === 'load'
        ? ({ reply: { ...FAILED, error: null, report: report('estimate') } } as FakeAnswer<
            typeof request
          >)
        : null,
    )
    const lab = createLabStore(new EngineClient(worker.create))
    const loading = lab.getState().loadText('{}', { origin: 'paste' })
    await waitFor(() => worker.requests().some((m) => m.request === 'run'))
    const [, count, run] = worker.requests()
    worker.reply(count?.id ?? -1, 'count', {
      tokenizer: 'o200k_base',
      report: report('o200k_base'),
      ms: 1,
    })
    await loading
    // The run under way was left going (no second run yet, nor a replay).
    expect(worker.requests().map((m) => m.request)).toEqual(['load', 'count', 'run'])
    worker.reply(run?.id ?? -1, 'run', ran('estimate'))
    await waitFor(() => worker.requests().filter((m) => m.request === 'run').length === 2)
    // No risk nor replay for the estimate-priced run: the exact one replaces it.
    expect(worker.requests().some((m) => m.request === 'replay' || m.request === 'risk')).toBe(
      false,
    )
  })
})

const waitFor = (predicate: () => boolean) =>
  vi.waitFor(() => expect(predicate()).toBe(true), { timeout: 2000, interval: 1 })
