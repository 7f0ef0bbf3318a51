import { presetConfig, type PresetId } from '../config/presets.ts'
import { scale } from '../config/scale.ts'
import { toEngineConfig } from '../config/validate.ts'
import { prepare, type Prepared } from '../engine/compaction/prepared.ts'
import { compact } from '../engine/compaction/run.ts'
import type { EngineConfig } from '../engine/compaction/types.ts'
import type { Conversation, FormatId, Message, Part, TextPart } from '../engine/model.ts'
import { STRATEGY_REGISTRY } from '../engine/strategies/index.ts'
import { createDigestSummarizer } from '../engine/summarize/digest.ts'
import { estimateCounter } from '../engine/tokens/index.ts'
import { IMPORTERS, importerFor, importTranscript, sniff } from '../formats/index.ts'
import { exportCompactedTranscript } from './transcript.ts'

/**
 * Test fixture: one hand-made agent session, written in every format and read back, so each
 * conversation carries its format's envelope (ids, source lines) as a real import would. Six
 * turns of reads (the same files again and again, so stale results exist), greps and shell runs
 * with long outputs, reasoning and replies: enough for every preset to fire once scaled to it.
 */
const text = (t: string): TextPart => ({ kind: 'text', text: t })

const FILES = ['src/a.ts', 'src/b.ts', 'src/a.ts', 'README.md']
const fileBody = (path: string, version: number, lines = 90) =>
  Array.from(
    { length: lines },
    (_, i) => `// ${path} v${version}\nexport const value${i} = ${i * version} // line ${i}`,
  ).join('\n')
const grepBody = (n: number) =>
  Array.from({ length: 60 }, (_, i) => `src/file${i % 9}.ts:${i + n}: match ${n}`).join('\n')
const prose = (tag: string, n: number) =>
  Array.from({ length: n }, (_, i) => `${tag} sentence ${i} explains what changed and why.`).join(
    ' ',
  )

export function canonicalSession(format: FormatId): Conversation {
  const noTools = format === 'aider' // aider's Markdown has no tool calls: plain turns only
  const messages: Message[] = []
  const m = (role: Message['role'], parts: Part[], extra: Partial<Message> = {}) =>
    messages.push({ id: `m${messages.length}`, role, parts, ...extra })
  let call = 0
  for (let turn = 0; turn < 6; turn++) {
    m('user', [text(`Turn ${turn}: please check ${FILES[turn % FILES.length]} and fix it.`)])
    for (let step = 0; step < 3; step++) {
      const path = FILES[(turn + step) % FILES.length] as string
      const id = `call_${++call}`
      const kind = step === 1 ? 'grep' : step === 2 && turn % 2 ? 'bash' : 'read_file'
      const args =
        kind === 'grep'
          ? { pattern: `value${turn}`, path: 'src' }
          : kind === 'bash'
            ? { command: `npm test -- ${turn}` }
            : { path }
      const body =
        kind === 'grep'
          ? grepBody(turn)
          : kind === 'bash'
            ? prose(`test run ${turn}`, 40)
            : fileBody(path, turn + 1)
      if (noTools) {
        m('assistant', [text(`Running ${kind} on ${path}. ${prose(`plan ${turn}.${step}`, 6)}`)])
        m('user', [text(body)], { injected: true })
        continue
      }
      m('assistant', [
        {
          kind: 'tool_call',
          callId: id,
          name: kind,
          argsRaw: JSON.stringify(args),
          args,
        },
      ])
      m('tool', [
        { kind: 'tool_result', callId: id, name: kind, content: [text(body)], isError: false },
      ])
    }
    m('assistant', [text(`Done with turn ${turn}. ${prose(`summary ${turn}`, 12)}`)])
  }
  return {
    meta: { format },
    system: [text('You are a careful coding agent. Read before you edit.')],
    tools: [],
    markers: [],
    messages,
  }
}

/** The session as its format's importer reads it back after writing it. */
export function nativeSession(format: FormatId): Conversation {
  const importer = importerFor(format)
  const parsed = importer.parse(sniff(importer.serialize(canonicalSession(format))))
  if (!parsed.ok) throw new Error(`${format}: ${parsed.error.message}`)
  return parsed.conversation
}

export const ALL_FORMATS: readonly FormatId[] = IMPORTERS.map((i) => i.id)

export const deps = { counter: estimateCounter, summarizer: createDigestSummarizer() }

export const totalOf = (p: Prepared) =>
  p.staticTokens + p.systemTokens + p.messageTokens.reduce((a, b) => a + b, 0)

/** The preset scaled so that its usable window is `fraction` of the conversation. */
export function scaledPreset(id: PresetId, total: number, fraction = 0.4) {
  const config = toEngineConfig(presetConfig(id))
  const usable = config.window.contextTokens - config.window.reservedOutput - config.window.buffer
  return scale(config, (fraction * total) / usable)
}

/** Compact, write, re-import, compact again: what the second run did. */
export async function twice(conversation: Conversation, config: EngineConfig) {
  const first = await compact(
    prepare(conversation, estimateCounter),
    config,
    deps,
    STRATEGY_REGISTRY,
  )
  const written = exportCompactedTranscript(first)
  const again = importTranscript(written.text, { format: conversation.meta.format })
  if (!again.result.ok) throw new Error(`re-import failed: ${again.result.error.message}`)
  const second = await compact(
    prepare(again.result.conversation, estimateCounter),
    config,
    deps,
    STRATEGY_REGISTRY,
  )
  return { first, written, again: again.result, second }
}
