/**
 * A fake engine worker for client and store tests: it records every message and answers each
 * request on the next tick with what `answer` returns for it (a reply, a refusal, an error, or
 * nothing — the request then stays pending until the test answers it through `reply`).
 */
import type { WorkerLike } from './client.ts'
import type { ConfigIssue, FromWorker, Params, Reply, RequestKind, ToWorker } from './protocol.ts'
import { PROTOCOL_VERSION } from './protocol.ts'

export type FakeAnswer<K extends RequestKind> =
  | { readonly reply: Reply<K> }
  | { readonly invalid: readonly ConfigIssue[] }
  | { readonly error: string }
  | null

export type Answerer = <K extends RequestKind>(request: K, params: Params<K>) => FakeAnswer<K>

export interface FakeWorker {
  readonly sent: ToWorker[]
  readonly create: () => WorkerLike
  /** Post a message to the client as the worker would. */
  post(message: FromWorker): void
  /** Answer request `id` of kind `request` with a reply now. */
  reply<K extends RequestKind>(id: number, request: K, reply: Reply<K>): void
  /** Requests sent (not cancels), in order. */
  requests(): Extract<ToWorker, { kind: 'request' }>[]
}

export function fakeWorker(answer: Answerer = () => null): FakeWorker {
  const sent: ToWorker[] = []
  let worker: WorkerLike | null = null
  const post = (message: FromWorker) =>
    worker?.onmessage?.({ data: message } as MessageEvent<FromWorker>)
  const fake: FakeWorker = {
    sent,
    post,
    reply: (id, request, reply) =>
      post({ kind: 'reply', id, request, protocol: PROTOCOL_VERSION, reply } as FromWorker),
    requests: () => sent.filter((m) => m.kind === 'request'),
    create: () => {
      worker = {
        onmessage: null,
        onerror: null,
        terminate: () => undefined,
        postMessage: (message) => {
          sent.push(message)
          if (message.kind !== 'request') return
          const out = answer(message.request, message.params as never) as FakeAnswer<RequestKind>
          if (!out) return
          const { id } = message
          setTimeout(() => {
            if ('reply' in out) fake.reply(id, message.request, out.reply)
            else if ('invalid' in out) post({ kind: 'invalid', id, issues: out.invalid })
            else post({ kind: 'error', id, message: out.error })
          }, 0)
        },
      }
      return worker
    },
  }
  return fake
}
