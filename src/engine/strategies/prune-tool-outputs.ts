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
 * Per output: its cleared part for the last placeholder, and the opening of its sentence. A
 * re-plan (or a later replay call) clears the same outputs again, and the view then finds the
 * replacement's price in its memo instead of counting; an edit of the step's numbers changes only
 * the sentence's shared ending (`why` below), so each output's opening is worded once.
 */
interface Cleared {
  /** The output this clears (a slot is reused only for the same object). */
  readonly source: ToolResultPart
  placeholder: string
  part: ToolResultPart
  /** "Cleared the <tool> output (N tokens, round(chars/4))", for `name` and `estimate`. */
  name: string
  estimate: number
  opening: string
  /**
   * What `view.price` answers for `part` (−1: not asked yet). Fixed per prepared conversation
   * (its counter and framing) and output (its message's role and model), as these records are.
   */
  price: number
}

/**
 * The records by flat part number, per prepared conversation: a replay clears hundreds of outputs
 * at each firing, and on a long session a lookup keyed by the part object (a hash of an object
 * somewhere in a large heap) cost several times what it did on a short one (issue 14).
 */
const clearedBy = new WeakMap<Prepared, (Cleared | undefined)[]>()

function clearedOf(ctx: StrategyContext, c: PruneCandidate, placeholder: string): Cleared {
  const prepared = ctx.view.prepared
  let slots = clearedBy.get(prepared)
  if (!slots) {
    const offset = ctx.view.parts.offset
    slots = new Array<Cleared | undefined>(offset[offset.length - 1] as number)
    clearedBy.set(prepared, slots)
  }
  const k = flatPart(ctx.view.parts, c.ref.message, c.ref.part)
  let made = k >= 0 ? slots[k] : undefined
  if (made?.source !== c.part) {
    made = {
      source: c.part,
      placeholder,
      part: clearedPart(c.part, placeholder),
      name: c.name,
      estimate: c.estimate,
      opening: opening(c),
      price: -1,
    }
    if (k >= 0) slots[k] = made
    return made
  }
  if (made.placeholder !== placeholder) {
    made.placeholder = placeholder
    made.part = clearedPart(c.part, placeholder)
    made.price = -1
  }
  if (made.name !== c.name || made.estimate !== c.estimate) {
    made.name = c.name
    made.estimate = c.estimate
    made.opening = opening(c)
  }
  return made
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
  for (const c of candidates) {
    const past = c.pastCompacted
    const made = clearedOf(ctx, c, p.placeholder)
    // Priced once per record: a replay clears hundreds of outputs at each firing, and the view's
    // price memo is a lookup keyed by the part object (issue 14).
    if (made.price < 0) {
      const message = ctx.conversation.messages[c.ref.message]
      made.price = message ? ctx.view.price(made.part, message.role, message.model) : 0
    }
    const applied = out.replace(
      c.ref,
      made.part,
      'stub',
      'pruned',
      () => made.opening + why(),
      past
        ? {
            fixed: `opencode stops its walk at the first already-cleared output (message ${ctx.conversation.messages[past.message]?.id ?? past.message}) and would have left this one (issue #30807)`,
            ...growth,
          }
        : growth,
      made.price,
    )
    done.push(applied)
  }
  recordRegion(ctx, p, track, walked.own, done)
}
