/**
 * Helpers of step-records.test.ts: the sources, the configs (every preset scaled so its steps
 * fire), the edits the app makes (each step's own params, the window, a protection) and the
 * comparison of a re-plan on a long-lived prepared conversation with a run on a fresh one.
 */
import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { generateLargeClaudeCode } from '../../../scripts/sample/generate-large.ts'
import { PRESET_IDS, presetConfig } from '../../config/presets.ts'
import { scale } from '../../config/scale.ts'
import { toEngineConfig } from '../../config/validate.ts'
import { importTranscript } from '../../formats/index.ts'
import { accountingFor } from '../accounting/index.ts'
import { prepare, type Prepared } from '../compaction/prepared.ts'
import { compact } from '../compaction/run.ts'
import type { EngineConfig } from '../compaction/types.ts'
import { WorkingView } from '../compaction/view.ts'
import type { Conversation } from '../model.ts'
import { createDigestSummarizer } from '../summarize/digest.ts'
import { estimateCounter } from '../tokens/index.ts'
import { STRATEGY_REGISTRY } from './index.ts'

const CORPUS_FILE = fileURLToPath(
  new URL(
    '../../../../shared/corpus/codex/localpush__rollout-2026-02-23T12-54-34-019c8a59-e9dd-71f0-9ae3-4079fe9726a9.jsonl',
    import.meta.url,
  ),
)

export interface Source {
  readonly name: string
  readonly conversation: Conversation
}

/** A corpus file (when the corpus is there) and a generated conversation of about 2,000 messages. */
export function sources(): Source[] {
  const out: Source[] = []
  if (existsSync(CORPUS_FILE)) {
    const o = importTranscript(readFileSync(CORPUS_FILE, 'utf8'), { fileName: 'localpush.jsonl' })
    if (!o.result.ok) throw new Error(o.result.error.message)
    out.push({ name: 'corpus codex/localpush', conversation: o.result.conversation })
  }
  out.push({ name: 'generated claude-code, 2,000 messages', conversation: generated(2_000) })
  return out
}

/** The first `count` messages of a generated Claude Code session (as bench/compaction.ts cuts). */
function generated(count: number): Conversation {
  for (let bytes = count * 3_500; ; bytes = Math.round(bytes * 1.2)) {
    const g = importTranscript(generateLargeClaudeCode(bytes, 7))
    if (!g.result.ok) throw new Error(g.result.error.message)
    const c = g.result.conversation
    if (c.messages.length >= count)
      return {
        ...c,
        messages: c.messages.slice(0, count),
        markers: c.markers.filter((m) => m.beforeIndex < count),
      }
  }
}

/**
 * Every preset scaled so the usable window is 40 % of the conversation (each step's trigger then
 * fires), plus falai without maxTokens and MAF without tokenBudget: their steps then read the
 * usable window.
 */
export function configs(prepared: Prepared): [string, EngineConfig][] {
  const total = new WorkingView(prepared, undefined, accountingFor(prepared).lastCall).contextTokens
  const out: [string, EngineConfig][] = PRESET_IDS.map((id) => {
    const c = toEngineConfig(presetConfig(id))
    const usable = c.window.contextTokens - c.window.reservedOutput - c.window.buffer
    return [id, scale(c, (0.4 * total) / usable)]
  })
  const falai = structuredClone(out.find(([id]) => id === 'falai')?.[1] as EngineConfig)
  for (const s of falai.pipeline) delete (s.params as Record<string, unknown>).maxTokens
  out.push(['falai without maxTokens', falai])
  const maf = structuredClone(out.find(([id]) => id === 'maf-context-window')?.[1] as EngineConfig)
  for (const s of maf.pipeline)
    if (s.strategy === 'token-budget') delete (s.params as Record<string, unknown>).tokenBudget
  out.push(['maf-context-window without tokenBudget', maf])
  return out
}

/** A numeric value edited to another valid one (halved, or one more when that would be 0). */
function edited(v: number): number {
  if (!Number.isInteger(v)) return v / 2
  return v > 1 ? Math.floor(v / 2) : v + 1
}

/**
 * The edits a user makes: each numeric param of each step in turn (as parsed: defaults count),
 * the window, a protection (two more recent turns protected) and the fallback's budget.
 */
export function edits(config: EngineConfig): [string, EngineConfig][] {
  const out: [string, EngineConfig][] = []
  config.pipeline.forEach((step, i) => {
    const strategy = STRATEGY_REGISTRY.get(step.strategy)
    const parsed = strategy?.schema.safeParse(step.params)
    if (!parsed?.success) return
    for (const [key, v] of Object.entries(parsed.data as object)) {
      if (typeof v !== 'number') continue
      const c = structuredClone(config)
      const params = c.pipeline[i]?.params as Record<string, unknown>
      params[key] = edited(v)
      out.push([`step ${i} ${step.strategy}.${key}`, c])
    }
  })
  const window = { ...config.window, contextTokens: Math.round(config.window.contextTokens * 0.9) }
  out.push(['window', { ...structuredClone(config), window }])
  const protections = { ...config.protections, recentTurns: config.protections.recentTurns + 2 }
  out.push(['protection', { ...structuredClone(config), protections }])
  // The fallback's own budget, twice (the window edit above moves the steps' triggers and
  // targets too; two budgets that both run the fallback tell a record of one from the other).
  for (const under of [0.5, 0.45]) {
    const fallback = { ...config.fallback, target: { kind: 'window_fraction', under } as const }
    if (config.fallback.enabled)
      out.push([`fallback target ${under}`, { ...structuredClone(config), fallback }])
  }
  return out
}

/** The decisions and projection of one re-plan (one round per run, as the app's re-plan). */
export async function plan(prepared: Prepared, config: EngineConfig) {
  const deps = { counter: estimateCounter, summarizer: createDigestSummarizer() }
  const r = await compact(prepared, structuredClone(config), deps, STRATEGY_REGISTRY)
  return { decisions: r.decisions, projection: r.projection }
}

/** The same on a prepared conversation made for this run alone (nothing recorded on it). */
export function fresh(conversation: Conversation, config: EngineConfig) {
  return plan(prepare(conversation, estimateCounter), config)
}
