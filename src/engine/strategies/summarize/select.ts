import { describeProtection, type StrategyContext } from '../../compaction/context.ts'
import { liveGroups } from '../../compaction/live-groups.ts'
import type { Group } from '../../groups.ts'
import type { Message } from '../../model.ts'
import { fmt } from '../tool-result-budget/falai.ts'
import type { PreservedTail } from '../preserve-tail.ts'

/** What the summary may replace, and what falai would have done differently. */
export interface Coverage {
  /** Coverable groups before the tail, oldest first (the truncation fallback uses all of them). */
  readonly candidates: readonly number[]
  /** Candidates that are earlier summaries (their text goes to `previousSummary`). */
  readonly previous: ReadonlySet<number>
  /** Divergences from the source the fixed mode avoided (for the decision's `fixed`). */
  readonly fixed: readonly string[]
}

export interface CoverageOptions {
  readonly faithful: boolean
  readonly summaryPrefix: string
}

function messageText(ctx: StrategyContext, m: number): string {
  return ctx.view
    .currentParts(m)
    .map((p) => (p.kind === 'text' ? p.text : ''))
    .join('')
}

/**
 * An earlier summary: one we inserted (`summaryOf`), an opencode summary message (`summary: true`
 * in its envelope), or a message starting with this strategy's own prefix (falai's
 * `[Conversation Summary]` system item in an imported history).
 */
export function isPreviousSummary(ctx: StrategyContext, g: Group, prefix: string): boolean {
  if (g.kind === 'summary') return true
  const head = prefix.trim()
  return markedSummary(ctx, g, head, summaryMarks(ctx.conversation.messages, head))
}

/** `isPreviousSummary` of a group that is no summary group, with the conversation's marks. */
function markedSummary(ctx: StrategyContext, g: Group, head: string, marks: Uint8Array): boolean {
  for (const m of ctx.view.messagesOf(g.index)) {
    const mark = marks[m] as number
    if (mark & BY_ENVELOPE) return true
    // The text test only holds for the message as the conversation has it: a message a step
    // before this one changed is read as it is now.
    if (ctx.view.hasOverrides(m)) {
      if (head.length > 0 && textStartsWith(ctx, m, head)) return true
    } else if (mark & BY_TEXT) return true
  }
  return false
}

/** The message says it is a summary (`summaryOf`, or opencode's `summary: true` envelope). */
const BY_ENVELOPE = 1
/** The message's own text starts with the summary prefix. */
const BY_TEXT = 2

// Asked of every live group at every plan, and the answer for a message nothing changed depends
// only on the (immutable) message and the prefix: read once per conversation and prefix value.
const marksByPrefix = new WeakMap<readonly Message[], Map<string, Uint8Array>>()

function summaryMarks(messages: readonly Message[], head: string): Uint8Array {
  let byPrefix = marksByPrefix.get(messages)
  if (!byPrefix) {
    byPrefix = new Map()
    marksByPrefix.set(messages, byPrefix)
  }
  let marks = byPrefix.get(head)
  if (!marks) {
    marks = new Uint8Array(messages.length)
    for (let m = 0; m < messages.length; m++) {
      const msg = messages[m] as Message
      const info = msg.source?.info as { summary?: unknown } | undefined
      if (msg.summaryOf || (msg.role === 'assistant' && info?.summary === true))
        marks[m] = BY_ENVELOPE
      else if (head.length > 0 && ownTextStartsWith(msg, head)) marks[m] = BY_TEXT
    }
    // A prefix is edited by typing: keep a few values, not every one typed.
    if (byPrefix.size >= 8) byPrefix.clear()
    byPrefix.set(head, marks)
  }
  return marks
}

/** `textStartsWith` of the message as the conversation has it. */
function ownTextStartsWith(msg: Message, head: string): boolean {
  let text = ''
  for (let i = 0; i < msg.parts.length && text.length < head.length; i++) {
    const part = msg.parts[i]
    if (part?.kind === 'text') text += part.text
  }
  return text.startsWith(head)
}

/**
 * `messageText(ctx, m).startsWith(head)`, reading only as many text parts as the prefix needs:
 * asked of every live group on every plan, where joining whole tool outputs cost more than the rest.
 */
function textStartsWith(ctx: StrategyContext, m: number, head: string): boolean {
  const count = ctx.conversation.messages[m]?.parts.length ?? 0
  let text = ''
  for (let i = 0; i < count && text.length < head.length; i++) {
    const part = ctx.view.partAt(m, i)
    if (part?.kind === 'text') text += part.text
  }
  return text.startsWith(head)
}

/** Text of an earlier summary, without the prefix. */
export function previousSummaryText(ctx: StrategyContext, group: number, prefix: string): string {
  const head = prefix.trim()
  return ctx.view
    .messagesOf(group)
    .map((m) => {
      const text = messageText(ctx, m).trim()
      return head && text.startsWith(head) ? text.slice(head.length).trim() : text
    })
    .filter(Boolean)
    .join('\n\n')
}

/**
 * Which live groups before the tail the summary may cover. Protected groups stay verbatim (a
 * `protected` skip says why). System groups: falai summarises its system message away; the fixed
 * mode keeps them (they are protected by default anyway) and says so. A tool group the source's
 * message cut would split is kept whole in the tail; the faithful mode records the split.
 */
export function planCoverage(
  ctx: StrategyContext,
  tail: PreservedTail,
  opts: CoverageOptions,
): Coverage {
  const candidates: number[] = []
  const previous = new Set<number>()
  const fixed: string[] = []
  for (const g of tail.straddling) {
    const group = ctx.view.prepared.grouping.groups[g]
    const tools = group?.tools.join(', ') || 'tool'
    const orphaned = ctx.view.messagesOf(g).filter((m) => m >= tail.cut).length
    const what = `falai counts messages: its cut (${tail.label}) falls inside the ${tools} group, so it would summarise the call message and leave ${orphaned} message(s) of its results orphaned in the tail`
    if (opts.faithful) {
      ctx.skip(
        g,
        'keep_recent',
        `${what}; groups are never split, so the whole group is kept in the tail`,
      )
    } else fixed.push(`${what}; the tail was extended to the whole group`)
  }
  const { groups } = ctx.view.prepared.grouping
  // The marks once per plan, not once per live group (two map lookups each, thousands per plan).
  const head = opts.summaryPrefix.trim()
  const marks = summaryMarks(ctx.conversation.messages, head)
  // The live groups only: walking every visible group and skipping the excluded ones made each
  // summary cost the whole conversation (see `liveGroups`).
  const live = liveGroups(ctx.view)
  // Indexed, not `for…of`: once per plan this loop stays unoptimised, and each step of an
  // iterator then allocated a result object (thousands of live groups per plan).
  for (let i = 0; i < live.length; i++) {
    const gi = live[i] as number
    if (tail.groups.has(gi)) continue
    const g = groups[gi] as Group
    const protection = ctx.protectionOf(g.index)
    // Replay records no skips: a protected group (not the system prompt) is only left out, and
    // whether it is an earlier summary only words the skip. Protected groups stay live for the
    // whole session (skills: about 100 in the 200 MB run), so this ran at every model call.
    if (protection && !ctx.recordNonChanges && g.kind !== 'system') continue
    const prev = g.kind === 'summary' || markedSummary(ctx, g, head, marks)
    if (g.kind === 'system' && !prev) {
      if (!opts.faithful) {
        ctx.skip(g.index, 'protected', 'The system prompt is kept verbatim, not summarised')
        fixed.push('falai would also have replaced the system prompt with the summary')
        continue
      }
      if (protection) {
        ctx.skip(
          g.index,
          'protected',
          `falai replaces the system prompt with the summary, but here it is kept: ${describeProtection(protection)}`,
        )
        continue
      }
    } else if (protection) {
      const what = prev ? 'An earlier summary is kept verbatim' : 'Kept verbatim before the summary'
      ctx.skip(g.index, 'protected', `${what}: ${describeProtection(protection)}`)
      continue
    }
    candidates.push(g.index)
    if (prev) previous.add(g.index)
  }
  return { candidates, previous, fixed }
}

/**
 * Bound the summariser's input (MAF `max_summary_input_tokens`, hard case 24): take candidates
 * oldest first while prompt + selected groups fit; an oversized FIRST group is skipped and left
 * verbatim, selection stops at the first later group that does not fit. Sizes are the engine's
 * exact counts of the groups as they are now.
 */
export function boundInput(
  ctx: StrategyContext,
  candidates: readonly number[],
  maxInput: number | null,
  prompt: string,
): number[] {
  if (maxInput === null) return [...candidates]
  const budget = maxInput - ctx.counter.count(prompt)
  const selected: number[] = []
  let used = 0
  for (let i = 0; i < candidates.length; i++) {
    const g = candidates[i] as number
    const size = ctx.view.groupTokens(g)
    if (i === 0 && size > budget) {
      ctx.skip(
        g,
        'denied_by_policy',
        `Left verbatim: this group (${fmt(size)} tokens) alone exceeds the summariser input budget (${fmt(maxInput)} tokens minus ${fmt(maxInput - budget)} for the prompt), so it is skipped rather than summarised`,
      )
      continue
    }
    if (used + size > budget) {
      const left = candidates.length - i
      ctx.skip(
        g,
        'denied_by_policy',
        `Summary input stops here: adding this group (${fmt(size)} tokens) to ${fmt(used)} would exceed the summariser input budget of ${fmt(budget)} tokens after the prompt; ${left} group(s) from here on stay verbatim`,
      )
      break
    }
    used += size
    selected.push(g)
  }
  return selected
}
