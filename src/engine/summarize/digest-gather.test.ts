import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { Message, Part } from '../model.ts'
import { readMessage, type Facts, type Item } from './digest-facts.ts'
import { gather } from './digest-gather.ts'

/** The one pass over every message that `gather` must agree with, whatever it kept. */
function oneFold(messages: readonly Message[]): Facts {
  const userRequests: string[] = []
  const toolCounts = new Map<string, number>()
  const names = new Map<string, string>()
  const files: string[] = []
  const commands: string[] = []
  const errors: string[] = []
  const earlierSummaries: string[] = []
  let latest: string | null = null
  let toolCalls = 0
  let toolResults = 0
  for (const message of messages) {
    const f = readMessage(message)
    if (f.summary !== null) earlierSummaries.push(f.summary)
    else if (f.request !== null) userRequests.push(f.request)
    else if (f.latest !== null) latest = f.latest
    toolCalls += f.calls
    toolResults += f.results
    for (const item of f.items as Item[])
      if (item.kind === 'call') {
        toolCounts.set(item.name, (toolCounts.get(item.name) ?? 0) + 1)
        if (item.callId !== null) names.set(item.callId, item.name)
        for (const path of item.files) if (!files.includes(path)) files.push(path)
        if (item.command) commands.push(item.command)
      } else {
        const name = item.name ?? (item.callId !== null ? names.get(item.callId) : undefined)
        errors.push(name ? `${name}: ${item.line}` : item.line)
      }
  }
  return {
    messages: messages.length,
    userRequests,
    toolCounts,
    toolCalls,
    toolResults,
    files,
    commands,
    errors,
    latest,
    earlierSummaries,
  }
}

const plain = (f: Facts) => ({ ...f, toolCounts: [...f.toolCounts] })

const TOOLS = ['Read', 'Bash', 'Edit', 'Grep', '']
const ID = fc.constantFrom('c1', 'c2', 'c3', 'c4', 'c5')
const part: fc.Arbitrary<Part> = fc.oneof(
  fc.string({ maxLength: 6 }).map((text): Part => ({ kind: 'text', text })),
  fc
    .record({
      callId: fc.option(ID, { nil: null }),
      name: fc.constantFrom(...TOOLS),
      path: fc.constantFrom('a.ts', 'b.ts', 'c.ts'),
      command: fc.constantFrom('ls', 'cat a.ts', 'npm test'),
    })
    .map(({ callId, name, path, command }): Part => {
      const args = name === 'Bash' ? { command } : { file_path: path }
      return { kind: 'tool_call', callId, name, argsRaw: JSON.stringify(args), args }
    }),
  fc
    .record({
      callId: fc.option(ID, { nil: null }),
      name: fc.option(fc.constantFrom(...TOOLS), { nil: undefined }),
      out: fc.constantFrom('ok', 'boom\nmore', ''),
      isError: fc.boolean(),
    })
    .map(({ callId, name, out, isError }): Part => ({
      kind: 'tool_result',
      callId,
      ...(name !== undefined ? { name } : {}),
      content: [{ kind: 'text', text: out }],
      isError,
    })),
)
const message = (i: number): fc.Arbitrary<Message> =>
  fc
    .record({
      role: fc.constantFrom('user', 'assistant', 'tool'),
      parts: fc.array(part, { maxLength: 3 }),
      summary: fc.boolean().map((b) => b && i % 7 === 3),
      injected: fc.boolean(),
    })
    .map(({ role, parts, summary, injected }): Message => ({
      id: `m${i}`,
      role: role as Message['role'],
      parts,
      ...(summary ? { summaryOf: { strategy: 'summarize', groups: [] } } : {}),
      ...(injected ? { injected: true } : {}),
    }))
const conversation = fc
  .integer({ min: 1, max: 400 })
  .chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => message(i))))

/** What a re-plan changes in the span a summary covers: copies, other facts, drops, its end. */
type Edit = 'copy' | 'stub' | 'refact' | 'drop' | 'cut' | 'none'
const edits = fc.array(
  fc.record({
    kind: fc.constantFrom<Edit>('copy', 'stub', 'refact', 'drop', 'cut', 'none'),
    at: fc.nat(),
  }),
  { maxLength: 8 },
)

function edited(base: readonly Message[], list: readonly { kind: Edit; at: number }[]): Message[] {
  let out = [...base]
  for (const { kind, at } of list) {
    if (out.length === 0) break
    const i = at % out.length
    const m = out[i] as Message
    if (kind === 'copy') out[i] = { ...m, parts: [...m.parts] }
    else if (kind === 'stub')
      // Every output replaced, as a stub or a cleared output is: an error's first line changes.
      out[i] = {
        ...m,
        parts: m.parts.map((p) =>
          p.kind === 'tool_result' ? { ...p, content: [{ kind: 'text', text: `stub ${at}` }] } : p,
        ),
      }
    else if (kind === 'refact') out[i] = { ...m, parts: [{ kind: 'text', text: `new ${at}` }] }
    else if (kind === 'drop') out.splice(i, 1)
    else if (kind === 'cut') out = out.slice(0, Math.max(1, i))
  }
  return out
}

describe('gather', () => {
  it('gives what one pass over every message gives, request after request', () => {
    fc.assert(
      fc.property(conversation, fc.array(edits, { minLength: 1, maxLength: 5 }), (base, rounds) => {
        let current: Message[] = base
        expect(plain(gather(current))).toEqual(plain(oneFold(current)))
        for (const round of rounds) {
          // Each request starts from the conversation's own first message, as a summary does.
          current = [base[0] as Message, ...edited(base, round).slice(1)]
          expect(plain(gather(current))).toEqual(plain(oneFold(current)))
        }
      }),
      { numRuns: 150 },
    )
  })

  it('names an errored result by the latest call with its id, however far back', () => {
    const call = (id: number, name: string): Message => ({
      id: `c${id}`,
      role: 'assistant',
      parts: [{ kind: 'tool_call', callId: 'x', name, argsRaw: '{}', args: {} }],
    })
    const filler = (id: number): Message => ({
      id: `f${id}`,
      role: 'assistant',
      parts: [{ kind: 'text', text: 'working' }],
    })
    const failed: Message = {
      id: 'r',
      role: 'tool',
      parts: [
        {
          kind: 'tool_result',
          callId: 'x',
          content: [{ kind: 'text', text: 'no' }],
          isError: true,
        },
      ],
    }
    // Hundreds of messages between the call and its result: they fall in different runs.
    const messages = [
      call(0, 'Old'),
      call(1, 'Read'),
      ...Array.from({ length: 600 }, (_, i) => filler(i)),
      failed,
    ]
    expect(gather(messages).errors).toEqual(['Read: no'])
    expect(plain(gather(messages))).toEqual(plain(oneFold(messages)))
  })
})
