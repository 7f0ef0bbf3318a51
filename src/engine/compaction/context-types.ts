/** Option and input types of the strategy context (context.ts), and the wording of protections. */
import type { Part, Role } from '../model.ts'
import type { PartRef } from '../pairing.ts'
import type { ProtectionKind, WindowConfig } from './types.ts'

export interface UsableWindow extends WindowConfig {
  /** contextTokens − reservedOutput − buffer (SPEC §5). */
  readonly usable: number
}

export interface ChangeOptions {
  /** What the faithful mode of the source system would have done instead. */
  readonly fixed?: string
  /** Field names trimmed (field-level trims). */
  readonly fields?: readonly string[]
  /** Apply even if the replacement is not smaller (never used by default: hard case 16). */
  readonly allowGrowth?: boolean
  /** For supersession: the newer result that makes this one stale (checked by an invariant). */
  readonly newer?: PartRef
}

export interface SummaryInsert {
  readonly role: Role
  readonly parts: readonly Part[]
  /** Group indexes the summary replaces; they are excluded atomically with the insert. */
  readonly covers: readonly number[]
  /** Group index the summary is placed next to. */
  readonly anchor: number
  readonly position: 'before' | 'after'
  /** Ids of summaries inserted earlier in this view that the new one absorbs (taken back). */
  readonly absorbs?: readonly string[]
}

/** The sentence a refused attempt carries. */
export function describeProtection(kind: ProtectionKind): string {
  switch (kind) {
    case 'system':
      return 'system prompt is protected'
    case 'recent_turn':
      return 'part of the most recent user turns, which are protected'
    case 'pinned':
      return 'pinned by the user'
    case 'protected_tool':
      return 'its tool is on the protected list'
    case 'pending_call':
      return 'a call still waiting for its result'
    case 'latest_thinking':
      return 'thinking blocks of the latest assistant message must stay byte-identical'
    case 'minimum_retained':
      return 'the newest group is always kept so the context is never empty'
    case 'newest_copy':
      return 'it holds the newest copy of a resource that older, stubbed results point to'
    case 'upstream_summary':
      return 'the summary an upstream compaction left, where the context starts: most formats cannot say "history dropped" without it'
    case 'out_of_context':
      return "outside this call's context (another agent's thread, or history an upstream compaction already dropped)"
  }
}
