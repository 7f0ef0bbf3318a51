// Node-only test helper (`.mts` keeps it out of tsconfig.engine.json: it uses node:crypto and
// node:fs). Shared by equality.corpus.test.ts and scripts/write-equality-baseline.ts, so the test
// and the script that writes its baseline compute the very same cases the very same way.
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  generateLargeClaudeCode,
  generateLargeOpenAIChat,
} from '../../../scripts/sample/generate-large.ts'
import { PRESET_IDS, presetConfig } from '../../config/presets.ts'
import { scale } from '../../config/scale.ts'
import { toEngineConfig } from '../../config/validate.ts'
import { importTranscript } from '../../formats/index.ts'
import { NOT_CONVERSATIONS } from '../../formats/testing-corpus.mts'
import { accountingFor } from '../accounting/index.ts'
import type { Conversation } from '../model.ts'
import { STRATEGY_REGISTRY } from '../strategies/index.ts'
import { createDigestSummarizer } from '../summarize/digest.ts'
import { estimateCounter, loadCounter, type TextCounter } from '../tokens/index.ts'
import { prepare } from './prepared.ts'
import { replay } from './replay.ts'
import { compact } from './run.ts'
import { written, type Sentence } from './sentence.ts'
import { WorkingView } from './view.ts'

/**
 * Hash-checked equality of the engine's output (issue 14): every corpus file × every preset (as
 * shipped and scaled so that the usable window is 40 % of the file), plus generated transcripts,
 * reduced to three sha256 hashes — the decisions, the projection, the replay points. The baseline
 * (equality.baseline.json) was written by the code before the incremental engine, so a faster
 * engine that decides anything differently fails the test.
 */

export const CORPUS = fileURLToPath(new URL('../../../../shared/corpus', import.meta.url))
export const BASELINE = fileURLToPath(new URL('./equality.baseline.json', import.meta.url))

export interface CaseHashes {
  /** strategy, kind, reason, groupId, tokens before/after, the sentence and every other field. */
  readonly decisions: string
  readonly projection: string
  readonly replay: string
  /** How many decisions (a readable figure beside the hashes: a count mismatch says where). */
  readonly count: number
}

export interface Source {
  readonly name: string
  readonly conversation: Conversation
  readonly counter: TextCounter
}

/**
 * JSON with object keys sorted: the hash does not depend on the order a value was built in. A
 * decision's sentence is hashed as its text under the name it had when the baseline was written
 * (`detail`): the engine now writes it when read (sentence.ts), and this reads it.
 */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      const record = v as Record<string, unknown>
      const fields: Record<string, unknown> = {}
      for (const k of Object.keys(record)) {
        if (k === 'sentence' && 'reason' in record) fields.detail = written(record[k] as Sentence)
        else fields[k] = record[k]
      }
      const out: Record<string, unknown> = {}
      for (const k of Object.keys(fields).sort()) out[k] = fields[k]
      return out
    }
    return v
  })
}

const sha = (text: string): string => createHash('sha256').update(text).digest('hex')

/** Corpus conversations (empty when the corpus is absent). */
export function corpusSources(): Source[] {
  if (!existsSync(CORPUS)) return []
  const out: Source[] = []
  for (const folder of readdirSync(CORPUS).sort()) {
    const dir = join(CORPUS, folder)
    if (!statSync(dir).isDirectory()) continue
    for (const f of readdirSync(dir).sort()) {
      const name = `${folder}/${f}`
      if (NOT_CONVERSATIONS.has(name)) continue
      const outcome = importTranscript(readFileSync(join(dir, f), 'utf8'), { fileName: name })
      if (!outcome.result.ok) throw new Error(`${name}: ${outcome.result.error.message}`)
      out.push({
        name: `corpus ${name}`,
        conversation: outcome.result.conversation,
        counter: estimateCounter,
      })
    }
  }
  return out
}

/** Generated transcripts (always present): Claude Code and OpenAI chat, exact o200k counts. */
export async function generatedSources(): Promise<Source[]> {
  const o200k = await loadCounter('o200k_base')
  const out: Source[] = []
  for (const [label, text] of [
    ['generated claude-code 400 kB seed 3', generateLargeClaudeCode(400_000, 3)],
    ['generated claude-code 1.5 MB seed 11', generateLargeClaudeCode(1_500_000, 11)],
    ['generated claude-code 5 MB seed 13', generateLargeClaudeCode(5_000_000, 13)],
    ['generated openai-chat 600 kB seed 5', generateLargeOpenAIChat(600_000, 5)],
  ] as const) {
    const outcome = importTranscript(text)
    if (!outcome.result.ok) throw new Error(`${label}: ${outcome.result.error.message}`)
    out.push({ name: label, conversation: outcome.result.conversation, counter: o200k })
  }
  return out
}

/** Hashes of one source × every preset × {as shipped, scaled to 40 %}, keyed `preset variant`. */
export async function hashSource(source: Source): Promise<Record<string, CaseHashes>> {
  const deps = { counter: source.counter, summarizer: createDigestSummarizer() }
  const prepared = prepare(source.conversation, source.counter)
  const total = new WorkingView(prepared, undefined, accountingFor(prepared).lastCall).contextTokens
  const out: Record<string, CaseHashes> = {}
  for (const id of PRESET_IDS) {
    const config = toEngineConfig(presetConfig(id))
    const usable = config.window.contextTokens - config.window.reservedOutput - config.window.buffer
    for (const [label, c] of [
      ['as shipped', config],
      ['scaled to 40%', scale(config, (0.4 * total) / usable)],
    ] as const) {
      const result = await compact(prepared, c, deps, STRATEGY_REGISTRY)
      const points = await replay(prepared, c, deps, STRATEGY_REGISTRY)
      out[`${id} ${label}`] = {
        decisions: sha(canonical(result.decisions)),
        projection: sha(canonical(result.projection)),
        replay: sha(canonical(points)),
        count: result.decisions.length,
      }
    }
  }
  return out
}
