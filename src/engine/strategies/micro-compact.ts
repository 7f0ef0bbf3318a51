import { z } from 'zod'
import type { StrategyContext } from '../compaction/context.ts'
import type { Sentence } from '../compaction/sentence.ts'
import { defineStrategy } from '../compaction/strategy.ts'
import { internParams } from './intern-params.ts'
import { createStepRecords } from './step-records.ts'
import type { ToolResultPart } from '../model.ts'
import { collapseCut } from './micro-compact/cut.ts'
import { inTail, tailByMessages } from './preserve-tail.ts'
import {
  openTier,
  falaiOptions,
  fmt,
  eachLiveResult,
  resultName,
  resultText,
  withResultText,
} from './tool-result-budget/falai.ts'

/** falai's micro_compact: every whitespace run becomes one space, then trim. */
export function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}

const TRAILING_NOTICE = /\n\n\[Truncated: \d+ chars total, showing first \d+\]$/

/**
 * Fixed mode: collapse the body but keep a trailing tool_result_budget notice as written, so
 * running the tiers in either order twice changes nothing more (falai would collapse the notice's
 * blank line on the next pass).
 */
export function collapseKeepingNotice(text: string): string {
  const notice = TRAILING_NOTICE.exec(text)
  if (!notice) return collapseWhitespace(text)
  return collapseWhitespace(text.slice(0, notice.index)) + notice[0]
}

// The same outputs are collapsed on every re-plan: memoise per (immutable) part object.
interface Collapsed {
  text: string
  faithful?: string
  fixed?: string
  /** The collapsed parts: the same object every re-plan and round, so the view's price memo hits. */
  faithfulPart?: ToolResultPart
  fixedPart?: ToolResultPart
  /** The last collapse sentence, unwritten, for the name, collapsed text and end it quotes. */
  sentence?: { name: string; collapsed: string; why: string; later: Sentence }
}
const collapsedCache = new WeakMap<object, Collapsed>()
function entryOf(part: object, text: string): Collapsed {
  let entry = collapsedCache.get(part)
  if (!entry || entry.text !== text) {
    entry = { text }
    collapsedCache.set(part, entry)
  }
  return entry
}
/**
 * The collapsed text of an entry's result, made once per (part, mode): for a result
 * tool_result_budget cut, from the collapse of its original (micro-compact/cut.ts).
 */
function collapsedOf(entry: Collapsed, part: ToolResultPart, faithful: boolean): string {
  if (faithful)
    return (entry.faithful ??=
      collapseCut(part, entry.text, true) ?? collapseWhitespace(entry.text))
  return (entry.fixed ??= collapseCut(part, entry.text, false) ?? collapseKeepingNotice(entry.text))
}
/** `withResultText(part, collapsed)`, one object per (part, mode): a fresh copy was re-tokenized every round. */
function collapsedPart(
  entry: Collapsed,
  part: ToolResultPart,
  collapsed: string,
  faithful: boolean,
): ToolResultPart {
  if (faithful) return (entry.faithfulPart ??= withResultText(part, collapsed))
  return (entry.fixedPart ??= withResultText(part, collapsed))
}

/**
 * "Collapsed whitespace in the … result (a → b chars): <why>", written when read. The function is
 * kept per part while the tool name, the collapsed text and the sentence end are the same: a
 * re-plan collapses thousands of results again, and a new one per decision would be garbage.
 */
function collapseSentence(
  entry: Collapsed,
  collapsed: string,
  name: string,
  why: string,
): Sentence {
  const s = entry.sentence
  if (s && s.name === name && s.collapsed === collapsed && s.why === why) return s.later
  const chars = entry.text.length
  const later = () =>
    `Collapsed whitespace in the ${name} result (${fmt(chars)} → ${fmt(collapsed.length)} chars): ${why}`
  entry.sentence = { name, collapsed, why, later }
  return later
}

const schema = z.object({ ...falaiOptions })

/** Shared options objects (one per collapse was thousands per re-plan). */
const GROWTH = { allowGrowth: true } as const
const NO_OPTIONS = {} as const

export type MicroCompactParams = z.infer<typeof schema>

/**
 * This step's runs, played back on a view in the state one started from (step-records.ts): it
 * reads the view, the protections, its (interned) params and — without maxTokens — the usable
 * window; its caches are memos per result part and params value.
 */
const records = createStepRecords()

export const microCompactStrategy = defineStrategy({
  id: 'micro-compact',
  label: 'Micro-compact',
  source: '@falai/agent',
  description:
    "@falai/agent CompactionEngine tier 2 (micro_compact): when the context is still at or over maxTokens (default: the usable window) × compactionThreshold (default 0.8), every tool result before the preserved tail (preserveRecentCount = 4 messages) has each whitespace run collapsed to one space and is trimmed (this flattens code and JSON formatting, as falai does). Fixed mode measures with exact tokens, keeps the tail in whole groups and skips collapses that save no tokens; faithful mode uses falai's estimate and message-count tail.",
  schema,
  run(ctx, params) {
    const p = internParams('micro-compact', params)
    // falai's gate reads the usable window when maxTokens is not set (falai.ts): then it is an input.
    records.run(ctx, p, [p.maxTokens === undefined ? ctx.window.usable : null], () =>
      microCompact(ctx, p),
    )
  },
})

function microCompact(ctx: StrategyContext, p: MicroCompactParams): void {
  const gate = openTier(ctx, p, 'micro_compact')
  if (!gate) return
  const tail = tailByMessages(ctx, p.preserveRecentCount)
  // The end of every collapse sentence: the same for the whole run, worded once.
  const why = `it lies before the preserved tail (${tail.label}); ${gate.text}`
  // falai applies it whenever the text changes; its character estimate always shrinks.
  const options = p.faithful ? GROWTH : NO_OPTIONS
  eachLiveResult(ctx, (ref, group, part) => {
    const text = resultText(part)
    // One lookup per result for everything kept on it (three per result before).
    const entry = entryOf(part, text)
    const collapsed = collapsedOf(entry, part, p.faithful)
    if (collapsed === text) return
    const name = resultName(ctx, ref, part) || 'tool'
    if (inTail(ctx, tail, ref.message, p.faithful)) {
      const saved = text.length - collapsed.length
      const split = tail.straddling.includes(group) && ref.message < tail.cut
      ctx.skip(
        group,
        'keep_recent',
        () =>
          `The ${name} result keeps its whitespace (${fmt(saved)} chars collapsible): it is in the preserved tail (${tail.label})` +
          (split
            ? ', extended to its whole tool group — falai counts messages and would have collapsed it'
            : ''),
        ref,
      )
      return
    }
    ctx.replace(
      ref,
      collapsedPart(entry, part, collapsed, p.faithful),
      'trim',
      'whitespace_collapsed',
      collapseSentence(entry, collapsed, name, why),
      options,
    )
  })
}
