import { describe, expect, it } from 'vitest'
import type { InspectReport } from '../../engine/inspect-types.ts'
import { EngineClient, type WorkerLike } from '../../worker/client.ts'
import { PROTOCOL_VERSION, type FromWorker, type ToWorker } from '../../worker/protocol.ts'
import { setEngineClient } from '../engine.ts'
import { useAppStore } from '../store.ts'

/** A worker whose every load fails to parse (a garbage paste). */
function installFailingWorker(): ToWorker[] {
  const sent: ToWorker[] = []
  const make = (): WorkerLike => {
    const worker: WorkerLike = {
      onmessage: null,
      onerror: null,
      terminate: () => undefined,
      postMessage: (message) => {
        sent.push(message)
        if (message.type !== 'load') return
        const reply = {
          type: 'loaded',
          id: message.id,
          protocol: PROTOCOL_VERSION,
          fileName: message.fileName,
          detection: null,
          candidates: [],
          formats: [],
          warnings: [],
          warningCount: 0,
          error: { line: 1, offset: 9, message: 'not a transcript' },
          report: null,
          preview: [],
          ms: 1,
        } as unknown as FromWorker
        setTimeout(() => worker.onmessage?.({ data: reply } as MessageEvent<FromWorker>), 0)
      },
    }
    return worker
  }
  setEngineClient(new EngineClient(make))
  return sent
}

describe('transcript slice: a failed load (issue 15)', () => {
  it('keeps the analysis on screen and only sets the error', async () => {
    const sent = installFailingWorker()
    const report = { marker: 'the sample' } as unknown as InspectReport
    useAppStore.setState({
      status: 'loaded',
      report,
      exactReport: report,
      fileName: 'coding-session.jsonl',
      origin: 'sample',
      draft: 'garbage {',
    })
    await useAppStore.getState().loadDraft()
    const s = useAppStore.getState()
    expect(sent.some((m) => m.type === 'load')).toBe(true)
    expect(s.report).toBe(report)
    expect(s.exactReport).toBe(report)
    expect(s.fileName).toBe('coding-session.jsonl')
    expect(s.origin).toBe('sample')
    expect(s.status).toBe('loaded')
    expect(s.error?.message).toBe('not a transcript')
    expect(s.draft).toBe('garbage {')
  })

  it('with nothing on screen, the failure is the state', async () => {
    installFailingWorker()
    useAppStore.setState({ status: 'idle', report: null, exactReport: null, fileName: null })
    await useAppStore.getState().loadText('garbage', { origin: 'paste' })
    const s = useAppStore.getState()
    expect(s.status).toBe('error')
    expect(s.report).toBeNull()
    expect(s.error?.line).toBe(1)
  })
})
