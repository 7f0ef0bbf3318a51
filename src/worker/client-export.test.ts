import { describe, expect, it } from 'vitest'
import { ConfigInvalidError, EngineClient, isStale, type WorkerLike } from './client.ts'
import type { ExportFile, FromWorker, ToWorker } from './protocol.ts'

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

const FILE: ExportFile = {
  fileName: 'config.yaml',
  language: 'yaml',
  mediaType: 'application/yaml',
  text: 'compaction: {}\n',
  warnings: [],
  notes: [],
}

function setup() {
  const worker = new FakeWorker()
  return { worker, client: new EngineClient(() => worker) }
}

describe('EngineClient export requests', () => {
  it('sends exportConfig with the preset and resolves with the file', async () => {
    const { worker, client } = setup()
    const request = client.exportConfig(null, 'lip', 'lip')
    expect(worker.posted[0]).toEqual({
      type: 'exportConfig',
      id: request.id,
      config: null,
      target: 'lip',
      preset: 'lip',
    })
    worker.reply({ type: 'exported', id: request.id, file: FILE })
    await expect(request.promise).resolves.toBe(FILE)
  })

  it('a newer export makes the older one stale; its late reply is dropped', async () => {
    const { worker, client } = setup()
    const first = client.exportReport('json')
    const second = client.exportTranscript()
    await expect(first.promise).rejects.toSatisfy(isStale)
    worker.reply({ type: 'exported', id: first.id, file: FILE })
    worker.reply({ type: 'exported', id: second.id, file: { ...FILE, fileName: 't.jsonl' } })
    await expect(second.promise).resolves.toMatchObject({ fileName: 't.jsonl' })
  })

  it('importConfig resolves with the config, or rejects with the issues', async () => {
    const { worker, client } = setup()
    const ok = client.importConfig('{}')
    worker.reply({ type: 'configImported', id: ok.id, config: { version: 1 } })
    await expect(ok.promise).resolves.toEqual({ config: { version: 1 } })
    const bad = client.importConfig('{}')
    const issues = [{ path: 'version', message: 'missing' }]
    worker.reply({ type: 'configInvalid', id: bad.id, issues })
    const error: unknown = await bad.promise.catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ConfigInvalidError)
    expect((error as ConfigInvalidError).issues).toEqual(issues)
  })
})
