/** Top-level `type`s of the rollout envelope `{timestamp, type, payload}` (protocol.rs). */
export const ROLLOUT_TYPES: ReadonlySet<string> = new Set([
  'session_meta',
  'response_item',
  'event_msg',
  'turn_context',
  'compacted',
])

/**
 * Envelope key holding a message id the serializer had to pin. Rollout items carry no ids, so
 * ids are positional (`m<index>`); after a compaction inserted or removed messages the
 * serializer writes the canonical id here so re-import keeps it. Codex ignores unknown keys at
 * the envelope level; item payloads are never touched (the API validates item ids).
 */
export const LAB_ID = 'compaction_lab_id'

/** One rollout line that produced parts of a message (kept so the serializer can rewrite it). */
export interface LineRecord {
  readonly line: number
  /** The original line object; its `payload` item is rebuilt from the parts on write. */
  readonly envelope: Record<string, unknown>
  /** How many consecutive parts of the message this line produced. */
  readonly parts: number
}

/** A line that is not part of a message (events, turn context, compacted…), kept verbatim. */
export interface ExtraLine {
  readonly line: number
  readonly value: unknown
}
