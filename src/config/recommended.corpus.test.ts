import { describe, expect, it } from 'vitest'
import { accountingFor } from '../engine/accounting/index.ts'
import { prepare } from '../engine/compaction/prepared.ts'
import { compact, isChange } from '../engine/compaction/run.ts'
import { WorkingView } from '../engine/compaction/view.ts'
import { inspectConversation } from '../engine/inspect.ts'
import type { Conversation } from '../engine/model.ts'
import { STRATEGY_REGISTRY } from '../engine/strategies/index.ts'
import { createDigestSummarizer } from '../engine/summarize/digest.ts'
import { estimateCounter } from '../engine/tokens/index.ts'
import { importTranscript } from '../formats/index.ts'
import { CORPUS_ROOT, NOT_CONVERSATIONS } from '../formats/testing-corpus.mts'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { presetConfig } from './presets.ts'
import { scaleTo } from './scale.ts'
import { toEngineConfig } from './validate.ts'

/**
 * Issue 12: every real transcript whose tool results are at least 30 % of its tokens gets real
 * compaction from `recommended` — scaled so its usable window is half the transcript, at least one
 * change comes from a pipeline step, not from the final fallback that drops the oldest groups.
 * Prints per file which steps changed what.
 *
 * "Its tokens" are the tokens of the context the next model call sends — the figure the config is
 * scaled to and its triggers measure. In a file an upstream compaction cut (or with a large hidden
 * prefix the provider reported), most tool results of the file are not in that context at all:
 * no strategy may compact what the model no longer sees. Such files are listed with both shares.
 */
const TOOL_SHARE = 0.3
const present = existsSync(CORPUS_ROOT)
if (!present) console.log(`recommended × corpus skipped: ${CORPUS_ROOT} not found`)

function corpusFiles(): { name: string; text: string }[] {
  const out: { name: string; text: string }[] = []
  for (const folder of readdirSync(CORPUS_ROOT).sort()) {
    const dir = join(CORPUS_ROOT, folder)
    if (!statSync(dir).isDirectory()) continue
    for (const f of readdirSync(dir).sort()) {
      const name = `${folder}/${f}`
      if (!NOT_CONVERSATIONS.has(name)) out.push({ name, text: readFileSync(join(dir, f), 'utf8') })
    }
  }
  return out
}

interface Sized {
  readonly name: string
  readonly conversation: Conversation
  /** Tool results' share of the next call's context (hidden prefix included). */
  readonly share: number
  /** Tool results' share of everything the file holds. */
  readonly fileShare: number
  /** The next call's context. */
  readonly total: number
}

/** Tool results in the next call's context, in the provider's tokens, over that context. */
function contextShare(conversation: Conversation): { share: number; total: number } {
  const prepared = prepare(conversation, estimateCounter)
  const view = new WorkingView(prepared, undefined, accountingFor(prepared).lastCall)
  let results = 0
  for (const g of view.visibleGroups()) {
    if (view.outOfContext(g.index)) continue
    for (const m of view.messagesOf(g.index))
      conversation.messages[m]?.parts.forEach((p, part) => {
        if (p.kind === 'tool_result') results += view.partTokens({ message: m, part })
      })
  }
  const total = view.contextTokens
  return { share: (results * view.accounting.scale) / Math.max(1, total), total }
}

/** Every corpus conversation with its tool-result share of the estimated tokens. */
function sizedCorpus(): Sized[] {
  const out: Sized[] = []
  for (const file of corpusFiles()) {
    const outcome = importTranscript(file.text, { fileName: file.name })
    if (!outcome.result.ok) throw new Error(`${file.name}: ${outcome.result.error.message}`)
    const conversation = outcome.result.conversation
    const tokens = inspectConversation(conversation, estimateCounter).tokens
    const fileShare = tokens.byCategory.tool_results / Math.max(1, tokens.total)
    out.push({ name: file.name, conversation, fileShare, ...contextShare(conversation) })
  }
  return out
}

describe.skipIf(!present)('recommended on tool-heavy corpus transcripts (issue 12)', () => {
  const deps = { counter: estimateCounter, summarizer: createDigestSummarizer() }
  const sized = present ? sizedCorpus() : []
  const heavy = sized.filter((f) => f.share >= TOOL_SHARE)
  const pct = (x: number) => `${(x * 100).toFixed(0)} %`

  it('the corpus has tool-heavy transcripts (the others are listed)', () => {
    for (const f of sized.filter((x) => x.share < TOOL_SHARE))
      console.log(
        `${f.name}: tool results ${pct(f.share)} of the ${f.total}-token context ` +
          `(${pct(f.fileShare)} of the file) — not tool-heavy`,
      )
    expect(heavy.length).toBeGreaterThan(0)
  })

  for (const file of heavy)
    it(file.name, async () => {
      const prepared = prepare(file.conversation, estimateCounter)
      // Scaled to the context the next call would have (what the triggers measure).
      const total = new WorkingView(prepared, undefined, accountingFor(prepared).lastCall)
        .contextTokens
      const config = scaleTo(toEngineConfig(presetConfig('recommended')), total, 0.5)
      const result = await compact(prepared, config, deps, STRATEGY_REGISTRY)
      const byStep = new Map<string, Map<string, number>>()
      for (const d of result.decisions) {
        if (!isChange(d)) continue
        const step = d.step < 0 ? 'fallback' : `step ${d.step} ${d.strategy}`
        const kinds = byStep.get(step) ?? new Map<string, number>()
        kinds.set(`${d.kind}:${d.reason}`, (kinds.get(`${d.kind}:${d.reason}`) ?? 0) + 1)
        byStep.set(step, kinds)
      }
      console.log(
        `${file.name}: tool results ${pct(file.share)} of the ${file.total}-token context; ` +
          `context ${result.tokensBefore} → ${result.tokensAfter} (usable ${result.window.usable})` +
          [...byStep]
            .map(
              ([step, kinds]) =>
                `\n  ${step}: ${[...kinds].map(([k, n]) => `${n} × ${k}`).join(', ')}`,
            )
            .join('') +
          (byStep.size === 0 ? '\n  nothing changed' : ''),
      )
      const fromSteps = result.decisions.filter((d) => isChange(d) && d.step >= 0).length
      expect(fromSteps, `${file.name}: no change from a pipeline step`).toBeGreaterThan(0)
    })
})
