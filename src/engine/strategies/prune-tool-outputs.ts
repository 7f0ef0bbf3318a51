import { z } from 'zod'
import type { StrategyContext } from '../compaction/context.ts'
import { defineStrategy } from '../compaction/strategy.ts'
import type { ToolResultPart } from '../model.ts'
import { recordRegion } from './prune-tool-outputs/frontier.ts'
import { walk, type PruneCandidate } from './prune-tool-outputs/walk.ts'
import { fmt } from './tool-result-budget/falai.ts'
import { internParams } from './intern-params.ts'
import type { Out } from './playback.ts'
import { createStepRecords } from './step-records.ts'
import { withFields } from '../objects.ts'
import { flatPart, type Prepared } from '../compaction/prepared.ts'

/** What opencode sends instead of a pruned output (`MessageV2.toModelMessages`). */
export const OPENCODE_CLEARED = '[Old tool result content cleared]'

const schema = z.object({
  /** PRUNE_MINIMUM: apply only if strictly more than this many tokens would be freed. */
  minimumTokens: z
    .number()
    .int('minimumTokens must be a whole number')
    .min(0, 'minimumTokens must be >= 0')
    .default(20_000),
  /** PRUNE_PROTECT: the newest this-many tokens of tool output are kept. */
  protectTokens: z
    .number()
    .int('protectTokens must be a whole number')
    .min(0, 'protectTokens must be >= 0')
    .default(40_000),
  /** PRUNE_PROTECTED_TOOLS (exact, case-sensitive names as opencode compares them). */
  protectedTools: z.array(z.string()).default(['skill']),
  /** User turns at the end that are never pruned. */
  protectTurns: z
    .number()
    .int('protectTurns must be a whole number')
    .min(0, 'protectTurns must be >= 0')
    .default(2),
  placeholder: z.string().min(1, 'placeholder must not be empty').default(OPENCODE_CLEARED),
  faithful: z.boolean().default(false),
})

export type PruneToolOutputsParams = z.infer<typeof schema>

/**
 * This step's runs, played back on a view in the state one started from (step-records.ts): it
 * reads the view, the protections and its params (no window, round or summariser). The replay
 * frontiers it keeps (frontier.ts) are read by replay only, which never plays back.
 */
const records = createStepRecords()
const NO_INPUTS = [] as const

/**
 * Per prepared conversation, by flat part number: the output a slot was made for, its cleared
 * part under `placeholder`, and that part's price (what `view.price` answers for it: fixed per
 * prepared conversation and output). A re-plan, or a later replay, clears the same outputs again.
 * Arrays rather than a record object per output: a firing clears hundreds of outputs, mostly in
 * part order, and reading a record object per output somewhere in a large heap was the firing's
 * costliest line on a long session (issue 14). An edit of the placeholder starts the table again.
 */
interface ClearedSlots {
  placeholder: string
  readonly source: (ToolResultPart | undefined)[]
  readonly part: (ToolResultPart | undefined)[]
  readonly price: Float64Array
}

const clearedBy = new WeakMap<Prepared, ClearedSlots>()

function slotsOf(ctx: StrategyContext, placeholder: string): ClearedSlots {
  const prepared = ctx.view.prepared
  let slots = clearedBy.get(prepared)
  if (!slots) {
    const offset = ctx.view.parts.offset
    const n = offset[offset.length - 1] as number
    slots = { placeholder, source: new Array(n), part: new Array(n), price: new Float64Array(n) }
    clearedBy.set(prepared, slots)
  } else if (slots.placeholder !== placeholder) {
    slots.placeholder = placeholder
    slots.source.fill(undefined)
  }
  return slots
}

/** The slot of candidate `c`'s output, filled for it if it held another (−1: it has none). */
function slotOf(ctx: StrategyContext, slots: ClearedSlots, c: PruneCandidate): number {
  const k = flatPart(ctx.view.parts, c.ref.message, c.ref.part)
  if (k >= 0 && slots.source[k] !== c.part) {
    const part = clearedPart(c.part, slots.placeholder)
    slots.source[k] = c.part
    slots.part[k] = part
    slots.price[k] = priceOf(ctx, c, part)
  }
  return k
}

/** What `ctx.replace` would price the cleared part of `c`'s output at (−1: let it price it). */
function priceOf(ctx: StrategyContext, c: PruneCandidate, part: ToolResultPart): number {
  const message = ctx.conversation.messages[c.ref.message]
  return message ? ctx.view.price(part, message.role, message.model) : -1
}

const opening = (c: PruneCandidate) =>
  `Cleared the ${c.name} output (${fmt(c.estimate)} tokens, round(chars/4))`

// One cleared part per output and placeholder: a placeholder edited back and forth finds its part.
const clearedParts = new WeakMap<ToolResultPart, Map<string, ToolResultPart>>()
function clearedPart(part: ToolResultPart, placeholder: string): ToolResultPart {
  let byText = clearedParts.get(part)
  if (!byText) {
    byText = new Map()
    clearedParts.set(part, byText)
  }
  let made = byText.get(placeholder)
  if (!made) {
    made = withFields(part, { content: [{ kind: 'text' as const, text: placeholder }] })
    byText.set(placeholder, made)
  }
  return made
}

export const pruneToolOutputsStrategy = defineStrategy({
  id: 'prune-tool-outputs',
  label: 'Prune old tool outputs',
  source: 'opencode',
  description:
    'opencode\'s prune (session/compaction.ts): walking from the newest message back, the last 2 user turns are never touched, the walk stops at the previous summary, and the newest 40,000 tokens of completed tool output (estimate round(chars/4)) are kept; older outputs are replaced by "[Old tool result content cleared]" (the call stays) — but only if that frees more than 20,000 tokens in total. Outputs of protected tools (skill) and errored or pending calls are never pruned. Fixed mode steps over already-cleared outputs instead of stopping the whole walk at the first one (opencode issue #30807) and never applies a placeholder longer than the output.',
  schema,
  run(ctx, params) {
    // The same params value as an earlier re-plan is that re-plan's object (intern-params.ts):
    // the step records and the replay frontiers (frontier.ts) are kept per params object.
    const p = internParams('prune-tool-outputs', params)
    records.run(ctx, p, NO_INPUTS, () => prune(ctx, p))
  },
})

function prune(ctx: StrategyContext, p: PruneToolOutputsParams): void {
  const out: Out = ctx
  const walked = walk(ctx, p, out)
  const { total, pruned, track } = walked
  if (pruned <= p.minimumTokens || walked.count === 0) {
    recordRegion(ctx, p, track, walked.own, null)
    // Replay records only changes: no sentences to build (nor the list of candidates).
    if (walked.count === 0 || !ctx.recordNonChanges) return
    for (const c of walked.candidates()) {
      out.skip(
        c.group,
        'skipped_below_min_tokens',
        () =>
          `The ${c.name} output (${fmt(c.estimate)} tokens) is old enough to prune, but pruning would free only ${fmt(pruned)} tokens in total (round(chars/4)), not more than the minimum ${fmt(p.minimumTokens)}: nothing is pruned`,
        c.ref,
      )
    }
    return
  }
  const candidates = walked.candidates()
  // The same for every output of this prune: one function, not a sentence per cleared output.
  const why = () =>
    `; the call stays: it is older than the newest ${fmt(p.protectTokens)} tokens of tool output (${fmt(total)} counted) and pruning frees ${fmt(pruned)} tokens, more than the minimum ${fmt(p.minimumTokens)}`
  // Shared by every replacement without a `fixed` note (ctx.replace only reads its options).
  const growth = p.faithful ? { allowGrowth: true } : {}
  const done: boolean[] = []
  const slots = slotsOf(ctx, p.placeholder)
  for (const c of candidates) {
    const past = c.pastCompacted
    const k = slotOf(ctx, slots, c)
    const part = k >= 0 ? (slots.part[k] as ToolResultPart) : clearedPart(c.part, p.placeholder)
    const applied = out.replace(
      c.ref,
      part,
      'stub',
      'pruned',
      () => opening(c) + why(),
      past
        ? {
            fixed: `opencode stops its walk at the first already-cleared output (message ${ctx.conversation.messages[past.message]?.id ?? past.message}) and would have left this one (issue #30807)`,
            ...growth,
          }
        : growth,
      k >= 0 ? (slots.price[k] as number) : priceOf(ctx, c, part),
    )
    done.push(applied)
  }
  recordRegion(ctx, p, track, walked.own, done)
}
