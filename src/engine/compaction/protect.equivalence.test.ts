/**
 * Guard for the on-demand protections (protect.ts) and the incrementally extended view (view.ts):
 * they must answer exactly what the original one-pass computation answered, at every replay limit.
 * The reference below is the original eager implementation, kept only here.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { Group } from '../groups.ts'
import type { Conversation, Message, Part } from '../model.ts'
import type { PartRef } from '../pairing.ts'
import { estimateCounter } from '../tokens/index.ts'
import { partKey, prepare } from './prepared.ts'
import { computeProtections } from './protect.ts'
import type { ProtectionConfig, ProtectionKind } from './types.ts'
import { WorkingView } from './view.ts'

function referenceProtections(view: WorkingView, config: ProtectionConfig) {
  const { conversation, grouping } = view.prepared
  const groups = grouping.groups
  const limit = view.limit
  const byGroup = new Array<ProtectionKind | null>(groups.length).fill(null)
  const byPart = new Map<string, ProtectionKind>()
  const visible: Group[] = []
  for (const g of groups) {
    if (g.messages.length > 0 && (g.messages[0] as number) >= limit) break
    visible.push(g)
  }
  let lastTurn = 0
  for (const g of visible) lastTurn = Math.max(lastTurn, g.turn)
  const firstProtectedTurn = config.recentTurns > 0 ? lastTurn - config.recentTurns + 1 : Infinity
  const pinned = new Set(config.pinned)
  const tools = new Set(config.tools.map((t) => t.toLowerCase()))
  for (const g of visible) {
    let kind: ProtectionKind | null = null
    if (config.system && g.kind === 'system') kind = 'system'
    else if (g.turn >= firstProtectedTurn && g.turn >= 1) kind = 'recent_turn'
    else if (
      pinned.size > 0 &&
      (pinned.has(g.id) || g.messages.some((m) => pinned.has(conversation.messages[m]?.id ?? '')))
    )
      kind = 'pinned'
    else if (tools.size > 0 && g.tools.some((t) => tools.has(t.toLowerCase())))
      kind = 'protected_tool'
    byGroup[g.index] = kind
  }
  if (config.pendingCalls) {
    const { calls, results } = grouping.pairing
    for (const c of calls) {
      if (c.message >= limit) break
      if (c.status === 'server') continue
      let answered = false
      for (const r of c.results) {
        if ((results[r]?.message ?? limit) < limit) {
          answered = true
          break
        }
      }
      if (answered) continue
      byPart.set(partKey(c.message, c.part), 'pending_call')
      const g = grouping.groupOfMessage[c.message] as number
      byGroup[g] ??= 'pending_call'
    }
  }
  if (config.latestThinking) {
    for (let m = Math.min(limit, conversation.messages.length) - 1; m >= 0; m--) {
      const msg = conversation.messages[m]
      if (msg?.role !== 'assistant') continue
      let any = false
      msg.parts.forEach((p, i) => {
        if (p.kind === 'reasoning') {
          byPart.set(partKey(m, i), 'latest_thinking')
          any = true
        }
      })
      if (any) {
        const g = grouping.groupOfMessage[m] as number
        byGroup[g] ??= 'latest_thinking'
      }
      break
    }
  }
  const groupsMap = new Map<number, ProtectionKind>()
  byGroup.forEach((k, i) => {
    if (k) groupsMap.set(i, k)
  })
  return {
    list: { groups: groupsMap, parts: byPart },
    group: (group: number) => byGroup[group] ?? null,
    part(group: number, ref: PartRef) {
      const own = byPart.get(partKey(ref.message, ref.part))
      if (own) return own
      const g = byGroup[group] ?? null
      return g === 'pending_call' || g === 'latest_thinking' ? null : g
    },
  }
}

const stepSpec = fc.record({
  reasoning: fc.boolean(),
  reasoningAlone: fc.boolean(),
  calls: fc.array(
    fc.record({ tool: fc.constantFrom('Read', 'Bash', 'skill'), answered: fc.boolean() }),
    { maxLength: 3 },
  ),
  text: fc.boolean(),
  injected: fc.boolean(),
  user: fc.boolean(),
})

function build(steps: readonly (typeof stepSpec extends fc.Arbitrary<infer T> ? T : never)[]) {
  const messages: Message[] = []
  let call = 0
  const push = (role: Message['role'], parts: Part[], extra: Partial<Message> = {}) =>
    messages.push({ id: `m${messages.length}`, role, parts, ...extra })
  for (const s of steps) {
    if (s.user) push('user', [{ kind: 'text', text: 'ask' }], s.injected ? { injected: true } : {})
    if (s.reasoning && s.reasoningAlone) push('assistant', [{ kind: 'reasoning', text: 'hmm' }])
    const parts: Part[] = []
    if (s.reasoning && !s.reasoningAlone) parts.push({ kind: 'reasoning', text: 'hmm' })
    if (s.text || s.calls.length === 0) parts.push({ kind: 'text', text: 'ok' })
    const results: Part[] = []
    for (const c of s.calls) {
      const callId = `c${call++}`
      parts.push({ kind: 'tool_call', callId, name: c.tool, argsRaw: '{}', args: {} })
      if (c.answered) results.push({ kind: 'tool_result', callId, content: [], isError: false })
    }
    push('assistant', parts)
    for (const r of results) push('tool', [r])
  }
  const conversation: Conversation = {
    meta: { format: 'openai-chat' },
    system: [{ kind: 'text', text: 'sys' }],
    tools: [],
    messages,
    markers: [],
  }
  return conversation
}

const configSpec = fc.record({
  system: fc.boolean(),
  recentTurns: fc.nat({ max: 3 }),
  pinned: fc.array(fc.constantFrom('m1', 'm4', 'gm2', 'g:system'), { maxLength: 2 }),
  tools: fc.array(fc.constantFrom('skill', 'READ'), { maxLength: 2 }),
  pendingCalls: fc.boolean(),
  latestThinking: fc.boolean(),
})

describe('on-demand protections and the incremental view', () => {
  it('answer as the one-pass computation does, at every limit', () => {
    fc.assert(
      fc.property(fc.array(stepSpec, { minLength: 1, maxLength: 8 }), configSpec, (steps, c) => {
        const conversation = build(steps)
        const prepared = prepare(conversation, estimateCounter)
        const moving = new WorkingView(prepared, 0)
        for (let limit = 0; limit <= conversation.messages.length; limit++) {
          moving.advanceTo(limit)
          const fresh = new WorkingView(prepared, limit)
          expect(moving.visibleGroups().map((g) => g.index)).toEqual(
            fresh.visibleGroups().map((g) => g.index),
          )
          const ref = referenceProtections(fresh, c)
          for (const view of [moving, fresh]) {
            const got = computeProtections(view, c)
            const list = got.list()
            expect([...list.groups]).toEqual([...ref.list.groups])
            expect([...list.parts]).toEqual([...ref.list.parts])
            for (const g of prepared.grouping.groups) {
              expect(got.group(g.index)).toBe(ref.group(g.index))
              expect([...view.messagesOf(g.index)]).toEqual(g.messages.filter((m) => m < limit))
            }
            conversation.messages.forEach((m, mi) => {
              const group = prepared.grouping.groupOfMessage[mi] as number
              for (let pi = 0; pi <= m.parts.length; pi++) {
                const r = { message: mi, part: pi }
                expect(got.part(group, r)).toBe(ref.part(group, r))
                expect(got.part(0, r)).toBe(ref.part(0, r))
              }
            })
          }
        }
      }),
      { numRuns: 80 },
    )
  })

  it('over the whole conversation, answer for each of several configs as the one-pass computation does', () => {
    // The whole-conversation tables are kept per prepared conversation and shared by every
    // config (each edit in the app is a new config object, and tables are kept per config value):
    // none may leak into another.
    fc.assert(
      fc.property(
        fc.array(stepSpec, { minLength: 1, maxLength: 8 }),
        fc.array(configSpec, { minLength: 2, maxLength: 4 }),
        (steps, configs) => {
          const conversation = build(steps)
          const prepared = prepare(conversation, estimateCounter)
          // Twice: the second time each config value is found again in a new object.
          for (const c of [...configs, ...configs]) {
            const view = new WorkingView(prepared)
            const ref = referenceProtections(view, c)
            const got = computeProtections(view, structuredClone(c))
            expect([...got.list().groups]).toEqual([...ref.list.groups])
            expect([...got.list().parts]).toEqual([...ref.list.parts])
            for (const g of prepared.grouping.groups)
              expect(got.group(g.index)).toBe(ref.group(g.index))
            conversation.messages.forEach((m, mi) => {
              const group = prepared.grouping.groupOfMessage[mi] as number
              for (let pi = 0; pi <= m.parts.length; pi++) {
                const r = { message: mi, part: pi }
                expect(got.part(group, r)).toBe(ref.part(group, r))
              }
            })
          }
        },
      ),
      { numRuns: 80 },
    )
  })
})
