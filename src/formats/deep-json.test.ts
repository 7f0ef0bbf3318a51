import { describe, expect, it } from 'vitest'
import { presetConfig } from '../config/presets.ts'
import { toEngineConfig } from '../config/validate.ts'
import { prepare } from '../engine/compaction/prepared.ts'
import { compact } from '../engine/compaction/run.ts'
import { inspectConversation } from '../engine/inspect.ts'
import { STRATEGY_REGISTRY } from '../engine/strategies/index.ts'
import { createDigestSummarizer } from '../engine/summarize/digest.ts'
import { estimateCounter } from '../engine/tokens/index.ts'
import { exportCompactedTranscript } from '../export/transcript.ts'
import { importTranscript, serializeConversation } from './index.ts'
import { lineOfOffset } from './util.ts'

/**
 * Issue 10 item 2: 6,000 nested arrays inside a tool result failed the whole import with "line 0
 * / offset 0 … Maximum call stack size exceeded" (JSON.stringify of the parsed value in each
 * importer). Now the value loads up to depth 512 and is kept as JSON text below that; a warning
 * names the line and offset; the rest of the file loads; export and compaction work.
 */
const DEEP = '['.repeat(6000) + '"bottom"' + ']'.repeat(6000)
const line = (v: unknown) => JSON.stringify(v)
const jsonl = (...lines: string[]) => lines.join('\n') + '\n'

const cases: { name: string; text: string; messages: number }[] = [
  {
    name: 'openai-chat (tool message content part)',
    text: `{"model":"gpt-4o","messages":[{"role":"user","content":"hi"},{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{}"}}]},{"role":"tool","tool_call_id":"c1","content":[${DEEP}]},{"role":"assistant","content":"done"}]}`,
    messages: 4,
  },
  {
    name: 'openai-chat (arguments string)',
    text: `{"model":"gpt-4o","messages":[{"role":"user","content":"hi"},{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":${JSON.stringify(`{"a":${DEEP}}`)}}}]},{"role":"tool","tool_call_id":"c1","content":"ok"}]}`,
    messages: 3,
  },
  {
    name: 'anthropic-messages (tool_result block and tool_use input)',
    text: `{"model":"claude-sonnet-4-5","max_tokens":10,"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"f","input":{"a":${DEEP}}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":[${DEEP}]}]},{"role":"assistant","content":"done"}]}`,
    messages: 4,
  },
  {
    name: 'gemini (functionResponse)',
    text: `{"contents":[{"role":"user","parts":[{"text":"hi"}]},{"role":"model","parts":[{"functionCall":{"name":"f","args":{}}}]},{"role":"user","parts":[{"functionResponse":{"name":"f","response":{"result":${DEEP}}}}]},{"role":"model","parts":[{"text":"done"}]}]}`,
    messages: 4,
  },
  {
    name: 'codex (response_item content)',
    text: jsonl(
      line({ timestamp: 't', type: 'session_meta', payload: { id: 's', cwd: '/w' } }),
      line({
        timestamp: 't',
        type: 'response_item',
        payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] },
      }),
      `{"timestamp":"t","type":"response_item","payload":{"type":"message","role":"assistant","content":[${DEEP}]}}`,
      line({
        timestamp: 't',
        type: 'response_item',
        payload: {
          type: 'message',
          role: 'assistant',
          content: [{ type: 'output_text', text: 'done' }],
        },
      }),
    ),
    messages: 2, // the two assistant items are one model turn
  },
  {
    name: 'claude-code (tool_result content)',
    text: jsonl(
      line({
        type: 'user',
        uuid: 'u1',
        parentUuid: null,
        sessionId: 's',
        timestamp: 't',
        message: { role: 'user', content: 'hi' },
      }),
      line({
        type: 'assistant',
        uuid: 'a1',
        parentUuid: 'u1',
        sessionId: 's',
        timestamp: 't',
        message: {
          id: 'msg1',
          role: 'assistant',
          content: [{ type: 'tool_use', id: 't1', name: 'Read', input: { file_path: 'a' } }],
        },
      }),
      `{"type":"user","uuid":"u2","parentUuid":"a1","sessionId":"s","timestamp":"t","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":[${DEEP}]}]}}`,
      line({
        type: 'assistant',
        uuid: 'a2',
        parentUuid: 'u2',
        sessionId: 's',
        timestamp: 't',
        message: { id: 'msg2', role: 'assistant', content: [{ type: 'text', text: 'done' }] },
      }),
    ),
    messages: 4,
  },
]

describe('6,000 nested arrays inside a transcript', () => {
  const deps = { counter: estimateCounter, summarizer: createDigestSummarizer() }
  for (const c of cases) {
    it(`${c.name}: loads, warns with line/offset, exports and compacts`, async () => {
      const outcome = importTranscript(c.text)
      expect(outcome.result.ok, JSON.stringify(outcome.result).slice(0, 300)).toBe(true)
      if (!outcome.result.ok) return
      const conversation = outcome.result.conversation
      expect(conversation.messages.length).toBe(c.messages)
      const deep = outcome.result.warnings.find((w) => /nesting deeper than 512/.test(w.message))
      if (c.name.includes('arguments string')) {
        // The argument string stays raw (it is what the model saw); its parse error says why.
        const call = conversation.messages[1]?.parts[0]
        expect(call?.kind === 'tool_call' && call.argsError).toMatch(/nesting deeper than 512/)
      } else {
        expect(deep, JSON.stringify(outcome.result.warnings)).toBeDefined()
        const offset = deep?.offset ?? -1
        expect(c.text[offset]).toBe('[')
        expect(deep?.line).toBe(lineOfOffset(c.text, offset))
        expect(deep?.message).toContain(`line ${deep?.line}, offset ${offset}`)
      }
      expect(JSON.stringify(outcome.result.warnings)).not.toMatch(/call stack/)
      // Nothing lost: the deep text survives (as a string) into the written file.
      const written = serializeConversation(conversation)
      expect(written).toContain('bottom')
      expect(inspectConversation(conversation, estimateCounter).tokens.total).toBeGreaterThan(0)
      const result = await compact(
        prepare(conversation, estimateCounter),
        toEngineConfig(presetConfig('recommended')),
        deps,
        STRATEGY_REGISTRY,
      )
      expect(result.invariants.ok).toBe(true)
      expect(() => structuredClone(result.projection)).not.toThrow()
      expect(exportCompactedTranscript(result).text).toContain('bottom')
    })
  }

  it('a line nested 100,000 deep in JSON Lines costs only its own value', () => {
    const deepest = '['.repeat(100_000) + ']'.repeat(100_000)
    const text = cases[5]?.text.replace('[' + DEEP + ']', deepest) ?? ''
    const outcome = importTranscript(text)
    expect(outcome.result.ok).toBe(true)
    if (outcome.result.ok) expect(outcome.result.conversation.messages.length).toBe(4)
  })
})
