/**
 * One string object per value, per conversation, for what the plan looks up in maps: identity
 * keys, file paths, tool names. Keys are built per call (`read:<path>:<range>`) and paths and tool
 * names come from each call's own arguments, so equal values were different strings, and a map
 * lookup compares two such strings character by character, loading both from wherever they were
 * made. A replay does that at every change; over a long session's heap, which the processor's
 * caches no longer hold, those loads grew the cost of each call: the bench's 5,000-call replay
 * runs 9–11% faster with one string per value, and its ratio to the 1,000-call one fell by
 * 0.2–0.55.
 */
import type { ResourceIdentity } from './identity.ts'
import { withFields } from '../../objects.ts'

/** The one string kept for a value (the first seen). */
export type Share = (s: string) => string

const byConversation = new WeakMap<object, Share>()

/** The strings shared over `conversation`'s identities (made when first asked). */
export function sharedStrings(conversation: object): Share {
  let share = byConversation.get(conversation)
  if (!share) {
    const kept = new Map<string, string>()
    share = (s) => {
      const one = kept.get(s)
      if (one !== undefined) return one
      kept.set(s, s)
      return s
    }
    byConversation.set(conversation, share)
  }
  return share
}

type Shared = { -readonly [K in 'key' | 'fullReadKey' | 'reads' | 'writes']?: ResourceIdentity[K] }

/** `id` with its key, full-read key and paths shared: the same fields with the same values. */
export function withSharedStrings(id: ResourceIdentity, share: Share): ResourceIdentity {
  const changes: Shared = { key: share(id.key) }
  if (id.fullReadKey !== undefined) changes.fullReadKey = share(id.fullReadKey)
  if (id.reads) changes.reads = id.reads.map(share)
  if (id.writes) changes.writes = id.writes.map(share)
  return withFields(id, changes)
}
