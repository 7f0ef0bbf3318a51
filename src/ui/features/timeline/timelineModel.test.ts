import { describe, expect, it } from 'vitest'
import {
  thinPoints,
  brushToMessages,
  callOfMessage,
  describeUpstream,
  messagesToBrush,
  timelineFacts,
  timelinePoints,
} from './timelineModel.ts'

const replay = {
  index: Int32Array.from([2, 5, 9, 14]),
  before: Float64Array.from([100, 200, 300, 400]),
  after: Float64Array.from([100, 150, 200, 250]),
  reported: Float64Array.from([Number.NaN, 210, Number.NaN, Number.NaN]),
  fired: [[], ['drop'], [], []],
}

describe('timeline model', () => {
  it('maps a message index to the first call at or after it', () => {
    expect(callOfMessage(replay.index, 0)).toBe(0)
    expect(callOfMessage(replay.index, 2)).toBe(0)
    expect(callOfMessage(replay.index, 3)).toBe(1)
    expect(callOfMessage(replay.index, 14)).toBe(3)
    expect(callOfMessage(replay.index, 99)).toBe(3)
    expect(callOfMessage(new Int32Array(0), 1)).toBe(-1)
  })

  it('puts upstream compactions on the nearest call', () => {
    const points = timelinePoints(replay, [
      { beforeIndex: 6, origin: 'claude-code-boundary', trigger: 'auto', preTokens: 155000 },
    ])
    expect(points.map((p) => p.upstream.length)).toEqual([0, 0, 1, 0])
    expect(points[1]?.reported).toBe(210)
    expect(points[0]?.reported).toBeNull()
  })

  it('turns a brush over calls into the messages that arrived over them, and back', () => {
    const points = timelinePoints(replay)
    expect(brushToMessages(points, 0, 3)).toBeNull()
    expect(brushToMessages(points, 1, 2)).toEqual({ from: 3, to: 9 })
    expect(brushToMessages(points, 0, 1)).toEqual({ from: 0, to: 5 })
    expect(brushToMessages(points, 3, 2)).toEqual({ from: 6, to: 14 })
    expect(messagesToBrush(points, null)).toEqual({ start: 0, end: 3 })
    expect(messagesToBrush(points, { from: 3, to: 9 })).toEqual({ start: 1, end: 2 })
    expect(messagesToBrush(points, { from: 0, to: 5 })).toEqual({ start: 0, end: 1 })
    expect(brushToMessages([], 0, 0)).toBeNull()
  })

  it('describes an upstream compaction in one line', () => {
    expect(
      describeUpstream(
        { beforeIndex: 6, origin: 'claude-code-boundary', trigger: 'auto', preTokens: 155000 },
        String,
      ),
    ).toBe(
      'upstream compaction (claude-code-boundary) · trigger: auto · 155000 tokens before · before message #6',
    )
  })
})

describe('timelinePoints extras', () => {
  it('flags calls, marks prefix steps and ends with the headline as the "now" point', () => {
    const replay = {
      index: Int32Array.from([1, 3, 5]),
      before: Float64Array.from([100, 200, 300]),
      after: Float64Array.from([100, 150, 200]),
      reported: Float64Array.from([110, Number.NaN, 290]),
      fired: [[], ['x'], []],
    }
    const points = timelinePoints(replay, [], {
      now: { before: 320, after: 210, index: 6 },
      flagged: [1],
      steps: [{ fromIndex: 5, prefixTokens: 9000 }],
    })
    expect(points.map((p) => p.flagged)).toEqual([true, false, false, false])
    expect(points.map((p) => p.step)).toEqual([null, null, 9000, null])
    expect(points.at(-1)).toMatchObject({ call: 4, before: 320, after: 210, now: true })
    const facts = timelineFacts(points, 1000)
    expect(facts.calls).toBe(3)
    expect(facts.flaggedCalls).toBe(1)
  })
})

describe('thinPoints', () => {
  const series = (n: number) =>
    Array.from({ length: n }, (_, i) => ({
      call: i + 1,
      index: i * 2 + 1,
      before: i * 10,
      // A sawtooth: compaction every 100 calls.
      after: (i % 100) * 10,
      reported: null,
      fired: i % 100 === 0 && i > 0 ? ['clear-tool-uses'] : [],
      upstream: i === 1234 ? [{ beforeIndex: 2468, origin: 'claude-code-boundary' }] : [],
      flagged: i === 777,
      step: i === 3001 ? 40_000 : null,
      now: false,
      costBefore: null,
      costAfter: null,
      rewrite: 0,
    }))

  it('leaves short series alone', () => {
    const s = series(100)
    expect(thinPoints(s)).toBe(s)
  })

  it('keeps at most the limit, every peak and trough, every firing and upstream marker, in order', () => {
    const s = series(5000)
    const thin = thinPoints(s, 800)
    expect(thin.length).toBeLessThanOrEqual(800)
    expect(thin[0]).toBe(s[0])
    expect(thin.at(-1)).toBe(s.at(-1))
    const calls = thin.map((p) => p.call)
    expect(calls).toEqual([...calls].sort((a, b) => a - b))
    const kept = new Set(calls)
    for (const p of s) {
      if (p.fired.length > 0 || p.upstream.length > 0 || p.flagged || p.step !== null)
        expect(kept.has(p.call)).toBe(true)
      // The peak just before each compaction survives, so the sawtooth keeps its height.
      if (p.after === 990) expect(kept.has(p.call)).toBe(true)
    }
  })
})
