/**
 * The engine worker: one `Session` (src/session) behind the shared envelope (serve.ts). When each
 * request runs, when it went stale and which buffers its reply owns is the session's scheduler.
 */
import { replyTransferables, scheduleSession } from '../session/scheduler.ts'
import { Session } from '../session/session.ts'
import type { RequestMap } from './protocol.ts'
import { serve, strictUtf8, type WorkerScope } from './serve.ts'

serve(
  globalThis as unknown as WorkerScope<RequestMap>,
  scheduleSession(new Session(strictUtf8)),
  replyTransferables,
)
