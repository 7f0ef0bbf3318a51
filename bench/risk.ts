/**
 * Risk check speed on a generated long session (not wired into `npm run bench`, which other work
 * is changing): `node bin/run-ts.mjs bench/risk.ts [messages]`. Prints the index build (first run
 * on a conversation), a second run on the same conversation (the index is cached: what a sweep or
 * compare pays per config), and how much the config removed and flagged.
 */
import { prepare } from '../src/engine/compaction/prepared.ts'
import { DEFAULT_PROTECTIONS } from '../src/engine/compaction/protect.ts'
import { compact } from '../src/engine/compaction/run.ts'
import type { EngineConfig } from '../src/engine/compaction/types.ts'
import type { Conversation, Message } from '../src/engine/model.ts'
import { assessRisk } from '../src/engine/risk/index.ts'
import { STRATEGY_REGISTRY } from '../src/engine/strategies/index.ts'
import { estimateCounter } from '../src/engine/tokens/index.ts'

/** A coding session: reads of generated files (code, paths, numbers, errors), then edits. */
export function longSession(messages: number): Conversation {
  const out: Message[] = [{ id: 'u0', role: 'user', parts: [{ kind: 'text', text: 'Fix it.' }] }]
  for (let i = 0; out.length < messages; i++) {
    const path = `src/module_${i % 97}/file_${i}.ts`
    const code = Array.from(
      { length: 60 },
      (_, l) =>
        `${String(l + 1).padStart(4)}→ export function handler${i}_${l}(input_${l}: Config${l % 7}) { return compute_value_${l}(input_${l}, ${1000 + l * 7}) } // see docs/notes_${l % 13}.md`,
    ).join('\n')
    const err = i % 5 === 0 ? `\nError: cannot resolve module ${path} at line ${100 + i}` : ''
    out.push({
      id: `a${i}`,
      role: 'assistant',
      parts: [
        { kind: 'text', text: `Reading ${path} to check handler${i}_3.` },
        {
          kind: 'tool_call',
          callId: `c${i}`,
          name: 'read_file',
          argsRaw: JSON.stringify({ path }),
          args: { path },
        },
      ],
    })
    out.push({
      id: `t${i}`,
      role: 'tool',
      parts: [
        {
          kind: 'tool_result',
          callId: `c${i}`,
          content: [{ kind: 'text', text: code + err }],
          isError: false,
        },
      ],
    })
    out.push({
      id: `s${i}`,
      role: 'assistant',
      parts: [
        {
          kind: 'text',
          text: `compute_value_${i % 60} and handler${Math.max(0, i - 3)}_5 need a guard; see line ${100 + i}.`,
        },
      ],
    })
  }
  return {
    meta: { format: 'openai-chat' },
    system: [],
    tools: [],
    messages: out.slice(0, messages),
    markers: [],
  }
}

const config = (keep: number): EngineConfig => ({
  window: { contextTokens: 10_000_000, reservedOutput: 0, buffer: 0 },
  protections: DEFAULT_PROTECTIONS,
  pipeline: [
    { strategy: 'clear-tool-uses', enabled: true, params: { triggerInputTokens: 0, keep } },
  ],
  fallback: { enabled: false, strict: false },
})

async function main(): Promise<void> {
  const n = Number(process.argv[2] ?? 10_000)
  const conversation = longSession(n)
  const chars = conversation.messages.reduce((a, m) => a + JSON.stringify(m.parts).length, 0)
  const prepared = prepare(conversation, estimateCounter)
  const deps = { counter: estimateCounter }
  for (const keep of [20, 200]) {
    const result = await compact(prepared, config(keep), deps, STRATEGY_REGISTRY, {
      checkIdempotence: false,
    })
    // CPU time beside wall time: the bench machine is shared, CPU time is what the check costs.
    const t0 = performance.now()
    const c0 = process.cpuUsage()
    const report = assessRisk(prepared, result)
    const ms = performance.now() - t0
    const cpu = process.cpuUsage(c0)
    console.log(
      `${n} messages (${(chars / 1e6).toFixed(1)} MB), clear-tool-uses keep ${keep}: ` +
        `${result.changes} changes, ${report.usedLater} used later (${report.tokens} tokens) — risk ${ms.toFixed(0)} ms wall, ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms CPU`,
    )
  }
}

if (process.argv[1]?.endsWith('risk.ts')) await main()
