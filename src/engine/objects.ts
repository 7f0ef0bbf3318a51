import type { Conversation, Message, Part } from './model.ts'

/**
 * Object copies that keep one hidden class per shape. In V8 11 (Node 20, which runs the CLI and
 * its fleet workers) an object literal that *starts* with a spread, `{ ...base, key }`, gets a
 * hidden class ("map") of its own on nearly every evaluation: 1,992 maps for 2,000 copies of one
 * two-key object, where `Object.assign({}, base, { key })` makes one. A spread after a literal
 * key (`{ kind, ...rest }`) is not affected. Every function that later reads such copies meets a
 * map it has not seen, so it is deoptimised ('wrong map') and compiled again — in every isolate,
 * so twice over in `evaluate --jobs 2` — and its property loads go through the megamorphic cache.
 * Hot engine code copies with these helpers instead (same keys, same order, same values).
 */

/** `{ ...base, ...changes }`: `base`'s own enumerable keys in order, then `changes` over them. */
export function withFields<T extends object, C extends object>(base: T, changes: C): T & C {
  return Object.assign({}, base, changes)
}

/** `{ ...base }`: a shallow copy of `base`'s own enumerable keys, in order. */
export function copyOf<T extends object>(base: T): T {
  return Object.assign({}, base)
}

/** The keys every importer gives a conversation, in the order its literal lists them. */
const CONVERSATION_KEYS = ['meta', 'system', 'tools', 'messages', 'markers', 'source'] as const

/**
 * `{ ...conversation, ...changes }` for a conversation. One made by an importer (all six keys, in
 * {@link CONVERSATION_KEYS} order) is copied as the same six-key literal, so projections and
 * imports share one hidden class and the strategies reading `ctx.conversation` meet one map, not
 * two; any other key set is copied key for key by {@link withFields}.
 */
export function withConversation(
  conversation: Conversation,
  changes: Partial<Conversation>,
): Conversation {
  const keys = Object.keys(conversation)
  let standard = keys.length === CONVERSATION_KEYS.length
  for (let i = 0; standard && i < keys.length; i++) standard = keys[i] === CONVERSATION_KEYS[i]
  for (const k of Object.keys(changes)) if (!(k in conversation)) standard = false
  if (!standard) return withFields(conversation, changes)
  const c = conversation
  const x = changes
  return {
    meta: 'meta' in x ? (x.meta as Conversation['meta']) : c.meta,
    system: 'system' in x ? (x.system as Conversation['system']) : c.system,
    tools: 'tools' in x ? (x.tools as Conversation['tools']) : c.tools,
    messages: 'messages' in x ? (x.messages as Conversation['messages']) : c.messages,
    markers: 'markers' in x ? (x.markers as Conversation['markers']) : c.markers,
    source: 'source' in x ? x.source : c.source,
  }
}

/** The keys of a message as the importers' one factory makes it (formats/shapes.ts), in order. */
const MESSAGE_KEYS = [
  'id',
  'role',
  'parts',
  'injected',
  'sidechain',
  'model',
  'timestamp',
  'usage',
  'line',
  'summaryOf',
  'source',
] as const

/**
 * `{ ...msg, parts }`. A message made by the importers' factory (all eleven keys, in
 * {@link MESSAGE_KEYS} order) is copied as the same literal, so projected messages share the
 * imported ones' hidden class; any other key set is copied key for key by {@link withFields}.
 */
export function withParts(msg: Message, parts: readonly Part[]): Message {
  const keys = Object.keys(msg)
  let standard = keys.length === MESSAGE_KEYS.length
  for (let i = 0; standard && i < keys.length; i++) standard = keys[i] === MESSAGE_KEYS[i]
  if (!standard) return withFields(msg, { parts })
  return {
    id: msg.id,
    role: msg.role,
    parts,
    injected: msg.injected,
    sidechain: msg.sidechain,
    model: msg.model,
    timestamp: msg.timestamp,
    usage: msg.usage,
    line: msg.line,
    summaryOf: msg.summaryOf,
    source: msg.source,
  }
}
