import { z } from 'zod'
import type { Sentence } from '../compaction/sentence.ts'
import type { ToolResultPart } from '../model.ts'
import type { StrategyContext } from '../compaction/context.ts'
import { defineStrategy } from '../compaction/strategy.ts'
import { internParams } from './intern-params.ts'
import { createStepRecords } from './step-records.ts'
import { noteCut } from './micro-compact/cut.ts'
import { inTail, tailByMessages } from './preserve-tail.ts'
import { priceSplice } from '../tokens/pricing-splice.ts'
import type { TextCounter } from '../tokens/types.ts'
import {
  openTier,
  falaiOptions,
  fmt,
  eachLiveResult,
  resultName,
  resultText,
  withResultText,
} from './tool-result-budget/falai.ts'
import { recall as recallValue, remember as rememberValue } from '../recent-values.ts'

// Threshold values kept per part, least recently used dropped: an edit and its undo alternate
// between a few, and the rest piled up (one replacement per part per value ever typed).
const MAX_VALUES = 4

/** falai's notice, exactly: `\n\n[Truncated: <total> chars total, showing first <max>]`. */
export function truncationNotice(total: number, max: number): string {
  return `\n\n[Truncated: ${total} chars total, showing first ${max}]`
}

/**
 * A notice at the end of a result, whatever whitespace micro_compact left before it: what
 * `/\s*\[Truncated: (\d+) chars total, showing first (\d+)\]$/` finds, without trying that
 * pattern at every position of a long result. The notice holds the text's last `[`, so it can
 * only start there; the match then begins where the whitespace run before it begins.
 */
const NOTICE = /^\[Truncated: (\d+) chars total, showing first (\d+)\]$/
const SPACE = /\s/

function noticeAtEnd(text: string): { readonly index: number; readonly total: string } | null {
  if (!text.endsWith(']')) return null
  const open = text.lastIndexOf('[')
  if (open < 0) return null
  const m = NOTICE.exec(text.slice(open))
  if (!m) return null
  let index = open
  while (index > 0 && SPACE.test(text.charAt(index - 1))) index--
  return { index, total: m[1] as string }
}

export type TruncationPlan =
  | {
      readonly kind: 'truncate'
      readonly text: string
      readonly total: number
      readonly fixed?: string
    }
  | {
      readonly kind: 'already'
      readonly total: number
      readonly shown: number
      readonly faithfulTotal: number
    }

/**
 * Plan the truncation of one over-budget result. Faithful: falai's `applyToolResultBudget` as is —
 * an already-truncated result is truncated again and its notice rewritten with a new total (the
 * length of preview + old notice). Fixed: a result that already ends with the notice is left alone
 * when its body fits; if a smaller budget applies now, the body is cut further and the ORIGINAL
 * total kept (hard case 17: no double notices, no drifting totals).
 */
export function planTruncation(text: string, max: number, faithful: boolean): TruncationPlan {
  const rewrite = `${text.slice(0, max)}${truncationNotice(text.length, max)}`
  if (faithful) return { kind: 'truncate', text: rewrite, total: text.length }
  const notice = noticeAtEnd(text)
  if (!notice) return { kind: 'truncate', text: rewrite, total: text.length }
  const body = text.slice(0, notice.index)
  const total = Number(notice.total)
  if (body.length <= max) {
    return { kind: 'already', total, shown: body.length, faithfulTotal: text.length }
  }
  return {
    kind: 'truncate',
    text: `${body.slice(0, max)}${truncationNotice(total, max)}`,
    total,
    fixed: `falai would have re-truncated the already-truncated text and rewritten its notice to "${text.length} chars total"; the original total ${total} is kept`,
  }
}

// The plan and the truncated part depend only on the (immutable) part, the budget and the mode:
// re-plans and rounds get the same replacement object back, whose price the view has memoised.
const truncations = new WeakMap<
  ToolResultPart,
  Map<string, { plan: TruncationPlan; replacement: ToolResultPart | null }>
>()

/** The last truncation per part, checked first: no key string per result per re-plan. */
const lastTruncations = new WeakMap<
  ToolResultPart,
  {
    max: number
    faithful: boolean
    made: { plan: TruncationPlan; replacement: ToolResultPart | null }
  }
>()

function truncationOf(
  part: ToolResultPart,
  text: string,
  max: number,
  faithful: boolean,
  counter: TextCounter,
) {
  const last = lastTruncations.get(part)
  if (last && last.max === max && last.faithful === faithful) return last.made
  const made = keyedTruncationOf(part, text, max, faithful, counter)
  lastTruncations.set(part, { max, faithful, made })
  return made
}

function keyedTruncationOf(
  part: ToolResultPart,
  text: string,
  max: number,
  faithful: boolean,
  counter: TextCounter,
) {
  const key = `${max}|${faithful}`
  let byKey = truncations.get(part)
  const hit = byKey ? recallValue(byKey, key) : undefined
  if (hit) return hit
  const plan = planTruncation(text, max, faithful)
  // Every cut text is the original's first `max` characters plus a notice: a new budget prices it
  // from what is known of the original (the view then reads that price), not by counting it all.
  if (plan.kind === 'truncate') priceSplice(plan.text, text, Math.min(max, text.length), counter)
  const replacement = plan.kind === 'truncate' ? withResultText(part, plan.text) : null
  // Its text is the original's first `max` characters and a notice: micro_compact collapses it
  // from the original's collapse (see micro-compact/cut.ts).
  if (replacement) noteCut(replacement, part, text, max)
  const made = { plan, replacement }
  if (!byKey) {
    byKey = new Map()
    truncations.set(part, byKey)
  }
  rememberValue(byKey, key, made, MAX_VALUES)
  return made
}

/** Shared options objects (one per truncation was thousands per re-plan). */
const GROWTH = { allowGrowth: true } as const
const NO_OPTIONS = {} as const

/**
 * "Truncated the … result from <total> to its first <why>", written when read. The function is
 * kept per part while the tool name, the total and the sentence end are the same: a re-plan
 * truncates the same results again, and a new one per decision would be garbage.
 */
const sentences = new WeakMap<
  ToolResultPart,
  { name: string; total: number; why: string; later: Sentence }
>()

function truncationSentence(
  part: ToolResultPart,
  name: string,
  total: number,
  why: string,
): Sentence {
  const s = sentences.get(part)
  if (s && s.name === name && s.total === total && s.why === why) return s.later
  const later = () => `Truncated the ${name} result from ${fmt(total)} to its first ${why}`
  sentences.set(part, { name, total, why, later })
  return later
}

const schema = z.object({
  ...falaiOptions,
  maxToolResultChars: z
    .number()
    .int('maxToolResultChars must be a whole number of characters')
    .positive('maxToolResultChars must be > 0')
    .default(5000),
})

export type ToolResultBudgetParams = z.infer<typeof schema>

/**
 * This step's runs, played back on a view in the state one started from (step-records.ts): it
 * reads the view, the protections, its (interned) params and — without maxTokens — the usable
 * window; its caches are memos per result part and params value.
 */
const records = createStepRecords()

export const toolResultBudgetStrategy = defineStrategy({
  id: 'tool-result-budget',
  label: 'Tool result budget',
  source: '@falai/agent',
  description:
    '@falai/agent CompactionEngine tier 1 (tool_result_budget): once the context is at or over maxTokens (default: the usable window) × compactionThreshold (default 0.8), every tool result before the preserved tail (preserveRecentCount = 4 messages) longer than maxToolResultChars (5,000) keeps its first maxToolResultChars characters plus the notice "[Truncated: <total> chars total, showing first <max>]". Fixed mode measures with exact tokens, keeps the tail in whole groups, never re-truncates a truncated result and never applies a truncation that makes a result longer; faithful mode reproduces falai\'s estimate, message-count tail and notice rewrite.',
  schema,
  run(ctx, params) {
    const p = internParams('tool-result-budget', params)
    // falai's gate reads the usable window when maxTokens is not set (falai.ts): then it is an input.
    records.run(ctx, p, [p.maxTokens === undefined ? ctx.window.usable : null], () =>
      toolResultBudget(ctx, p),
    )
  },
})

function toolResultBudget(ctx: StrategyContext, p: ToolResultBudgetParams): void {
  const max = p.maxToolResultChars
  const gate = openTier(ctx, p, 'tool_result_budget')
  if (!gate) return
  const tail = tailByMessages(ctx, p.preserveRecentCount)
  // The end of every truncation sentence: the same for the whole run, worded once.
  const why = `${fmt(max)} chars with falai's notice: it lies before the preserved tail (${tail.label}); ${gate.text}`
  const plain = p.faithful ? GROWTH : NO_OPTIONS
  const counter = ctx.view.prepared.counter
  eachLiveResult(ctx, (ref, group, part) => {
    const text = resultText(part)
    if (text.length <= max) return
    const name = resultName(ctx, ref, part) || 'tool'
    if (inTail(ctx, tail, ref.message, p.faithful)) {
      const split = tail.straddling.includes(group) && ref.message < tail.cut
      ctx.skip(
        group,
        'keep_recent',
        () =>
          `The ${name} result (${fmt(text.length)} chars, over ${fmt(max)}) is kept whole: it is in the preserved tail (${tail.label})` +
          (split
            ? `, extended to its whole tool group — falai counts messages and would have truncated it because its message lies just before the cut`
            : ''),
        ref,
      )
      return
    }
    const { plan, replacement } = truncationOf(part, text, max, p.faithful, counter)
    if (plan.kind === 'already') {
      ctx.skip(
        group,
        'already_compacted',
        () =>
          `The ${name} result is already truncated (first ${fmt(plan.shown)} of ${fmt(plan.total)} chars, with falai's notice): left as is — falai would truncate it again and rewrite the notice to "${plan.faithfulTotal} chars total"`,
        ref,
      )
      return
    }
    if (!p.faithful && plan.text.length >= text.length) {
      ctx.skip(
        group,
        'no_savings',
        () =>
          `The ${name} result (${fmt(text.length)} chars) is only just over ${fmt(max)}: the truncated text plus notice would be ${fmt(plan.text.length)} chars, longer than the original, so it is left as is (falai would apply it)`,
        ref,
      )
      return
    }
    ctx.replace(
      ref,
      replacement ?? withResultText(part, plan.text),
      'trim',
      'result_truncated',
      truncationSentence(part, name, plan.total, why),
      // falai applies the cut whatever it saves; its own estimate is what the faithful mode uses.
      // (Plain literals, not spreads; one shared object when there is no fix to note.)
      plan.fixed
        ? p.faithful
          ? { fixed: plan.fixed, allowGrowth: true }
          : { fixed: plan.fixed }
        : plain,
    )
  })
}
