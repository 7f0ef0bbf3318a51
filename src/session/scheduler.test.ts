import { describe, expect, it } from 'vitest'
import type { Progress, RequestContext } from './requests.ts'
import { scheduleSession, slicedCheckpoint } from './scheduler.ts'
import { Session, type Outcome } from './session.ts'
import { readingBody } from './test-conversation.ts'
import type { RunSummary } from './types.ts'

/**
 * The scheduler without a thread: a fake transport context (a macrotask per checkpoint, like the
 * worker's) drives the real session, so the waits and staleness are checked in node.
 */
function context(
  options: { live?: () => boolean; onCheckpoint?: () => Promise<void> | void } = {},
) {
  const posted: Progress<string>[] = []
  const live = options.live ?? (() => true)
  const ctx: RequestContext = {
    live,
    progress: (p) => posted.push(p),
    checkpoint: async (p) => {
      await new Promise((resolve) => setTimeout(resolve, 0))
      await options.onCheckpoint?.()
      if (!live()) return false
      if (p) posted.push(p)
      return true
    },
  }
  return { ctx, posted }
}

const BODY = JSON.stringify(readingBody())
const SMALL = {
  version: 1,
  window: { contextTokens: 2000, reservedOutput: 100 },
  pipeline: [{ strategy: 'supersede-stale-results', params: { minToolOutputTokens: 1 } }],
}

function loaded() {
  const session = new Session((bytes) => new TextDecoder('utf-8', { fatal: true }).decode(bytes))
  const handlers = scheduleSession(session)
  void handlers.load({ text: BODY, fileName: 'chat.json' }, context().ctx)
  return { session, handlers }
}

const valueOf = <T>(outcome: Outcome<T>): T => {
  if (outcome.kind !== 'ok') throw new Error(`not ok: ${JSON.stringify(outcome)}`)
  return outcome.value
}

describe('scheduleSession', () => {
  it('a run asked with the count prices with the estimate; a detail waits for the count', async () => {
    const { handlers } = loaded()
    const order: string[] = []
    const count = Promise.resolve(handlers.count({ tokenizer: 'o200k_base' }, context().ctx))
    const run = Promise.resolve(handlers.run({ config: SMALL }, context().ctx))
    const detail = Promise.resolve(handlers.detail({ groupId: 'g0', maxChars: 10 }, context().ctx))
    void count.then(() => order.push('count'))
    void detail.then(() => order.push('detail'))
    expect((valueOf(await run) as RunSummary).tokenizer).toBe('estimate')
    expect(valueOf(await count)).toMatchObject({ tokenizer: 'o200k_base' })
    await detail
    expect(order).toEqual(['count', 'detail'])
    // Runs after the count price exactly.
    const exact = await handlers.run({ config: SMALL }, context().ctx)
    expect((valueOf(exact) as RunSummary).tokenizer).toBe('o200k_base')
  })

  it('reports the run phases in order, and a cancelled request is stale', async () => {
    const { handlers } = loaded()
    const { ctx, posted } = context()
    valueOf(await handlers.run({ config: SMALL }, ctx))
    expect(posted.map((p) => `${p.phase}:${p.done}/${p.total}`)).toEqual([
      'wait:0/4',
      'prepare:1/4',
      'compact:2/4',
      'summarize:3/4',
    ])
    const cancelled = context({ live: () => false }).ctx
    expect(await handlers.run({ config: SMALL }, cancelled)).toEqual({ kind: 'stale' })
  })

  it('a request on a conversation is stale once another loads', async () => {
    const { handlers } = loaded()
    let loadedAgain = false
    const { ctx } = context({
      onCheckpoint: () => {
        if (loadedAgain) return
        loadedAgain = true
        void handlers.load({ text: BODY.replace('Fix', 'Mend'), fileName: 'b.json' }, context().ctx)
      },
    })
    const values = [2000, 3000, 4000]
    const swept = await handlers.sweep({ config: SMALL, path: 'window.contextTokens', values }, ctx)
    expect(loadedAgain).toBe(true)
    expect(swept).toEqual({ kind: 'stale' })
  })

  it('a replay is stale once a newer run replaces the one it replays', async () => {
    const { session, handlers } = loaded()
    valueOf(await handlers.run({ config: SMALL }, context().ctx))
    let t = 0
    // Every call of the clock is 50 ms later: each replayed call ends a slice.
    const slow = scheduleSession(session, () => (t += 50))
    const full = await slow.replay({}, context().ctx)
    expect(valueOf(full).index.length).toBeGreaterThan(1)
    let reran = false
    const { ctx } = context({
      onCheckpoint: async () => {
        if (reran) return
        reran = true
        await session.run(null, 'recommended')
      },
    })
    expect(await slow.replay({}, ctx)).toEqual({ kind: 'stale' })
    expect(reran).toBe(true)
  })
})

describe('slicedCheckpoint', () => {
  it('looks at the queue once a slice is over, and posts progress at most every progressMs', async () => {
    let t = 0
    let looks = 0
    const posted: Progress<string>[] = []
    const ctx: RequestContext = {
      live: () => true,
      progress: () => undefined,
      checkpoint: async (p) => {
        looks++
        if (p) posted.push(p)
        return true
      },
    }
    const check = slicedCheckpoint(ctx, { sliceMs: 8, progressMs: 100, now: () => t })
    for (let done = 1; done <= 40; done++) {
      t += 5
      expect(await check(done, 40)).toBe(true)
    }
    // 200 ms in 5 ms steps: a look every other step (8 ms slices), progress every 100 ms.
    expect(looks).toBe(20)
    expect(posted.map((p) => p.done)).toEqual([2, 22])
  })
})
