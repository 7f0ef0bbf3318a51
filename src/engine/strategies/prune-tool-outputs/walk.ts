import type { StrategyContext } from '../../compaction/context.ts'
import { lowestLiveMessage } from '../../compaction/live-groups.ts'
import type { Message, ToolResultPart } from '../../model.ts'
import type { PartRef } from '../../pairing.ts'
import { groupOf } from '../preserve-tail.ts'
import { callNamesOf, fmt, resultName, resultText } from '../tool-result-budget/falai.ts'
import { candidatesIn, regionCandidates, regionOf, type WalkTrack } from './frontier.ts'
import type { Out } from '../playback.ts'
import { canJoin, forgetRecent, recentOf, recordRecent } from './recent.ts'
import {
  ALREADY_CLEARED,
  clearedAt,
  ERROR_RESULT,
  isSummaryAt,
  NOT_RESULT,
  walkFacts,
} from './walk-facts.ts'

export interface PruneParams {
  readonly minimumTokens: number
  readonly protectTokens: number
  readonly protectedTools: readonly string[]
  readonly protectTurns: number
  readonly placeholder: string
  readonly faithful: boolean
}

export interface PruneCandidate {
  readonly ref: PartRef
  readonly group: number
  readonly part: ToolResultPart
  readonly name: string
  readonly estimate: number
  /** Set when the fixed walk went past an already-compacted output to reach it (issue #30807). */
  readonly pastCompacted?: PartRef
}

export interface WalkResult {
  /** The candidates the walk met itself, in walk order (the frontier's follow them). */
  readonly own: PruneCandidate[]
  /** How many candidates in all: the walk's own and the frontier's. */
  readonly count: number
  /**
   * Every candidate in walk order. The frontier's are built on demand: most replay calls clear
   * nothing and need only their count and tokens, not a list as long as the history.
   */
  candidates(): PruneCandidate[]
  readonly total: number
  readonly pruned: number
  /** Replay only: what the frontier for the next walk is built from. */
  readonly track: WalkTrack | null
}

/** opencode `Token.estimate`: max(0, round(chars / 4)) of the tool output. */
export function opencodeEstimate(text: string): number {
  return Math.max(0, Math.round(text.length / 4))
}

/** Already cleared: by opencode (`time.compacted`, imported as meta) or by an earlier prune. */
export function isCompacted(part: ToolResultPart, placeholder: string): boolean {
  return clearedText(part, measured(part).text, placeholder)
}

function clearedText(part: ToolResultPart, text: string, placeholder: string): boolean {
  if (part.meta?.compacted === true) return true
  return text === placeholder || text === ALREADY_CLEARED
}

// Parts are immutable: their text and opencode's estimate are computed once per part object, not
// once per walk (the walk runs at every model call of a replay).
const texts = new WeakMap<ToolResultPart, { text: string; estimate: number }>()
function measured(part: ToolResultPart): { text: string; estimate: number } {
  let m = texts.get(part)
  if (!m) {
    const text = resultText(part)
    m = { text, estimate: opencodeEstimate(text) }
    texts.set(part, m)
  }
  return m
}

/**
 * opencode's prune walk (engines.md §2.1): newest → oldest message; skip until `protectTurns` user
 * turns have been seen; stop at a previous summary (or an upstream compaction marker, or a summary
 * this engine inserted); inside each message walk results newest → oldest, only completed
 * (non-error) outputs, skipping protected tools; an already-compacted output stops the whole walk
 * (faithful) or is stepped over (fixed, issue #30807); the newest `protectTokens` of output are
 * kept, everything older is a candidate. Non-changes are recorded as skips as they are met.
 */
export function walk(ctx: StrategyContext, p: PruneParams, out: Out = ctx): WalkResult {
  const messages = ctx.conversation.messages
  const limit = ctx.view.limit
  const facts = walkFacts(ctx.view.prepared, callNamesOf(ctx))
  const offset = facts.index.offset
  let markerStop = -1
  for (const marker of ctx.conversation.markers) {
    if (marker.beforeIndex <= limit) markerStop = Math.max(markerStop, marker.beforeIndex)
  }
  let summaryStop = -1
  for (const s of ctx.view.summaries()) {
    summaryStop = Math.max(summaryStop, s.position === 'before' ? s.anchor : s.anchor + 1)
  }
  const protectedTools = new Set(p.protectedTools)
  const candidates: PruneCandidate[] = []
  let turns = 0
  let total = 0
  let pruned = 0
  let pastCompacted: PartRef | undefined
  let summaryPassed: string | null = null
  // Replay only (no sentences for non-changes): what an earlier walk over this view left below
  // its frontier (see frontier.ts), so this walk covers only what is new since.
  let frontier = ctx.recordNonChanges ? null : regionOf(ctx, p, facts)
  const track: WalkTrack | null = ctx.recordNonChanges
    ? null
    : {
        complete: true,
        lowestBoundary: limit,
        oldestKept: limit,
        met: [],
        region: null,
        regionCandidates: 0,
      }
  let leftRecent = false
  const lowest = lowestLiveMessage(ctx.view)
  // Replay only: what the previous walk read inside the recent turns (recent.ts).
  const segment = track && p.protectTurns > 0 ? recentOf(ctx, p, facts) : null

  loop: for (let m = limit - 1; m >= 0; m--) {
    if (
      segment &&
      track &&
      m === segment.limit - 1 &&
      segment.end < m &&
      canJoin(segment, turns, frontier ? frontier.below : null, lowest)
    ) {
      // Down to where the walk leaves the recent turns, what matters below is as read before.
      turns += segment.turns
      summaryPassed ??= segment.summaryPassed
      m = segment.end + 1
      continue
    }
    // The recent turns reach below the frontier (a group dropped above it took a user turn with
    // it): its outputs were counted as if the walk had left them, so walk the history instead.
    if (frontier && m < frontier.below && turns < p.protectTurns) frontier = null
    if (frontier && track && m < frontier.below) {
      // Below the frontier only its outputs count, in its order (nothing else changed there):
      // its oldest ones are the candidates, found without going through the list.
      track.region = frontier
      track.regionCandidates = candidatesIn(frontier, total, p.protectTokens)
      total += frontier.sums[frontier.live.length] as number
      pruned += frontier.sums[track.regionCandidates] as number
      break
    }
    // Every message below is in a dropped or summarised group, which the walk steps over: with
    // the real window, a long replay has most of its history there, and stepping over it at every
    // call made the walk quadratic (5,000 per call by the end of a 5,000-call replay).
    if (m < lowest) break
    const group = groupOf(ctx, m)
    if (ctx.view.isExcluded(group)) continue
    if (facts.turnStart[m] === 1) turns++
    const inRecentTurns = turns < p.protectTurns
    if (track && !inRecentTurns && !leftRecent) {
      if (p.protectTurns > 0)
        recordRecent(ctx, p, {
          limit,
          end: m,
          turns: turns - 1,
          summaryPassed,
          mark: ctx.view.changeMark,
          summaries: ctx.view.summaries().length,
        })
      // The next walk must have counted the recent turns when it reaches the frontier.
      track.oldestKept = Math.min(track.oldestKept, m)
    }
    leftRecent ||= !inRecentTurns
    const summary = isSummaryAt(facts, m, limit)
    if (track && (summary || m < markerStop || group < summaryStop)) track.lowestBoundary = m
    // A summary met inside the protected turns still bounds the walk once it leaves them, exactly
    // like a summary this engine inserted earlier in the run (so a re-run on the projection agrees).
    if (!summaryPassed && summary) summaryPassed = (messages[m] as Message).id
    if (!inRecentTurns) {
      const boundary = summaryPassed
        ? `the previous summary (message ${summaryPassed})`
        : m < markerStop
          ? 'an upstream compaction point'
          : group < summaryStop
            ? 'a summary inserted earlier'
            : null
      if (boundary) {
        if (track) track.complete = false
        if (ctx.recordNonChanges)
          out.skip(
            group,
            'already_compacted',
            `Prune walk stops at ${boundary}: older history was compacted before (opencode stops at the last summary)`,
          )
        break
      }
    }
    const first = offset[m] as number
    // A message none of whose parts the view replaced is read from the facts alone.
    const replaced = ctx.view.hasOverrides(m)
    for (let i = (offset[m + 1] as number) - first - 1; i >= 0; i--) {
      const k = first + i
      let part: ToolResultPart | null = null
      if (replaced) {
        const now = ctx.view.partAt(m, i)
        if (now?.kind !== 'tool_result') continue
        part = now
      } else if (facts.result[k] === NOT_RESULT) continue
      // Addresses are the view's shared ones (`refAt`), taken only where something keeps one: a
      // fresh object per part walked was the walk's costliest line on a long session.
      const name = (part ? resultName(ctx, ctx.view.refAt(m, i), part) : facts.names[k]) || 'tool'
      if (part ? part.isError : facts.result[k] === ERROR_RESULT) {
        if (ctx.recordNonChanges)
          out.skip(
            group,
            'denied_by_policy',
            () =>
              `The ${name} error output is not pruned: opencode prunes completed tool outputs only`,
            ctx.view.refAt(m, i),
          )
        continue
      }
      if (protectedTools.has(name)) {
        if (ctx.recordNonChanges)
          out.skip(
            group,
            'protected',
            () =>
              `The ${name} output is never pruned: ${name} is a protected tool (its output is runtime instructions)`,
            ctx.view.refAt(m, i),
          )
        continue
      }
      // A replaced part's text and estimate by one lookup; the original's from the facts.
      const now = part ? measured(part) : null
      if (
        part && now
          ? clearedText(part, now.text, p.placeholder)
          : clearedAt(facts, k, p.placeholder)
      ) {
        // Met later outside the recent turns, it would set `pastCompacted` (frontier.ts).
        track?.met.push({ kind: 'compacted', ref: ctx.view.refAt(m, i) })
        if (inRecentTurns) continue
        if (p.faithful) {
          if (ctx.recordNonChanges)
            out.skip(
              group,
              'already_compacted',
              () =>
                `The ${name} output was already cleared: opencode stops the whole walk here, so older outputs are not considered (issue #30807)`,
              ctx.view.refAt(m, i),
            )
          if (track) track.complete = false
          break loop
        }
        pastCompacted ??= ctx.view.refAt(m, i)
        if (ctx.recordNonChanges)
          out.skip(
            group,
            'already_compacted',
            () =>
              `The ${name} output was already cleared; the walk continues past it (opencode would stop here and skip every older output, issue #30807)`,
            ctx.view.refAt(m, i),
          )
        continue
      }
      const estimate = now ? now.estimate : (facts.estimate[k] as number)
      if (inRecentTurns) {
        if (track) track.oldestKept = m
        if (ctx.recordNonChanges)
          out.skip(
            group,
            'keep_recent',
            () =>
              `The ${name} output (${fmt(estimate)} tokens, round(chars/4)) is in the last ${p.protectTurns} user turns, which opencode never prunes`,
            ctx.view.refAt(m, i),
          )
        continue
      }
      total += estimate
      const output = part ?? (facts.parts[k] as ToolResultPart)
      const ref = ctx.view.refAt(m, i)
      if (total <= p.protectTokens) {
        // It still counts towards protectTokens at later calls: the frontier keeps it.
        track?.met.push({
          kind: 'live',
          ref,
          estimate,
          candidate: { ref, group, part: output, name, estimate },
        })
        // `total` grows as the walk goes on: the sentence quotes its value here.
        const running = total
        if (ctx.recordNonChanges)
          out.skip(
            group,
            'keep_recent',
            () =>
              `The ${name} output (${fmt(estimate)} tokens, round(chars/4)) is within the newest ${fmt(p.protectTokens)} tokens of tool output (running total ${fmt(running)})`,
            ref,
          )
        continue
      }
      pruned += estimate
      track?.met.push(candidates.length)
      // Two literals rather than a spread: a re-plan makes thousands of candidates.
      candidates.push(
        pastCompacted
          ? { ref, group, part: output, name, estimate, pastCompacted }
          : { ref, group, part: output, name, estimate },
      )
    }
  }
  // A walk that stopped inside the recent turns leaves no segment for the next one.
  if (track && !leftRecent) forgetRecent(ctx, p)
  const region = track?.region
  const inRegion = track?.regionCandidates ?? 0
  const past = pastCompacted
  return {
    own: candidates,
    count: candidates.length + inRegion,
    candidates: () =>
      region && inRegion > 0
        ? [...candidates, ...regionCandidates(region, inRegion, past)]
        : candidates,
    total,
    pruned,
    track,
  }
}
