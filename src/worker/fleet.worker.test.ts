import { beforeAll, describe, expect, it, vi } from 'vitest'
import { CHAT_BODY } from './chat-body.testing.ts'
import {
  PROTOCOL_VERSION,
  type FleetRequestMap,
  type FromWorker,
  type ToWorker,
} from './protocol.ts'

/**
 * The fleet worker script in node, as engine.worker.test.ts drives the engine worker: it speaks
 * the shared envelope (request / progress / reply / invalid / cancel, with ids and the version).
 */
type In = ToWorker<FleetRequestMap>
type Out = FromWorker<FleetRequestMap>
const posted: Out[] = []
let send: (message: In) => void = () => undefined

beforeAll(async () => {
  vi.stubGlobal('postMessage', (message: Out) => posted.push(message))
  await import('./fleet.worker.ts')
  const scope = globalThis as unknown as { onmessage: (e: { data: In }) => void }
  send = (message) => scope.onmessage({ data: message })
})

const BODY = CHAT_BODY
const evaluate = (id: number, params: FleetRequestMap['evaluate']['params']) =>
  send({ kind: 'request', id, request: 'evaluate', params })
const answer = (id: number) => posted.find((m) => m.id === id && m.kind !== 'progress')
const until = (predicate: () => boolean) =>
  vi.waitFor(() => expect(predicate()).toBe(true), { timeout: 10_000, interval: 5 })

describe('fleet worker', () => {
  it('answers a file (bytes or Blob) with its rows; a bad file is its own failure', async () => {
    const bytes = new TextEncoder().encode(BODY).buffer as ArrayBuffer
    evaluate(1, { name: 'a.json', bytes, config: null, preset: 'recommended' })
    evaluate(2, { name: 'b.json', bytes: new Blob([BODY]), config: null, preset: 'lip' })
    evaluate(3, { name: 'c.json', bytes: new Blob(['not json']), config: null, preset: 'lip' })
    await until(() => [1, 2, 3].every((id) => answer(id) !== undefined))
    for (const [id, name] of [
      [1, 'a.json'],
      [2, 'b.json'],
    ] as const) {
      expect(answer(id)).toMatchObject({
        kind: 'reply',
        request: 'evaluate',
        protocol: PROTOCOL_VERSION,
      })
      const reply = answer(id) as Extract<Out, { kind: 'reply' }>
      expect(reply.reply).toMatchObject([{ kind: 'row', row: { name, calls: 3 } }])
    }
    const failedFile = answer(3) as Extract<Out, { kind: 'reply' }>
    expect(failedFile.reply).toMatchObject([{ kind: 'failed', failure: { name: 'c.json' } }])
  })

  it('refuses an invalid config with its issues, and posts nothing for a cancelled file', async () => {
    evaluate(4, { name: 'a.json', bytes: new Blob([BODY]), config: { version: 1, pipeline: [] } })
    evaluate(5, { name: 'a.json', bytes: new Blob([BODY]), config: null, preset: 'recommended' })
    send({ kind: 'cancel', id: 5 })
    evaluate(6, { name: 'a.json', bytes: new Blob([BODY]), config: null, preset: 'recommended' })
    await until(() => answer(4) !== undefined && answer(6) !== undefined)
    expect(answer(4)).toMatchObject({ kind: 'invalid', issues: [{ path: 'window' }] })
    expect(posted.filter((m) => m.id === 5)).toEqual([])
  })
})
