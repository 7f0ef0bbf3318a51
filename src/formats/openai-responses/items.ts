import type { Message, Part, Role, UpstreamMarker } from '../../engine/model.ts'
import { describe, isObject, str } from '../util.ts'
import type { IdAllocator } from '../util.ts'
import { extraKeys } from '../openai-chat/content.ts'
import { contentParts, outputItemParts } from './items-output.ts'
import { partFromResponses } from './content.ts'
import { pushAll } from '../../engine/arrays.ts'
import { newMessage, newToolResult } from '../shapes.ts'

export { serializeResponseItems } from './items-serialize.ts'

/**
 * Responses API items ⇄ canonical messages — reusable API (the Codex importer embeds the same
 * items in its `response_item` lines).
 *
 * `parseResponseItems(items, ctx)`:
 * - consecutive model-output items (`reasoning`, `*_call`, assistant `message`) between two input
 *   items become ONE assistant message (one model call); every part carries
 *   `meta.item` (a group key) and the first part of each item `meta.itemType` + `meta.itemExtra`
 *   (the item's other keys: `id`, `status`, `phase`…) so `serializeResponseItems` can split the
 *   message back into the same items;
 * - `function_call` / `custom_tool_call` / `local_shell_call` / `computer_call` correlate by
 *   `call_id` (never the `fc_…` item `id`, which stays in `itemExtra`); calls without `call_id`
 *   (`web_search_call`, `file_search_call`, `mcp_call`…) are provider-executed: `serverSide`,
 *   `callId` = item `id`;
 * - every `*_output` item becomes its own `role:'tool'` message with one `tool_result` part;
 * - user / system / developer messages map to roles user / system (`source.role` keeps
 *   `developer`); easy messages (`{role, content:string}` without `type`) keep `source.easy`;
 * - `compaction` items become an injected user message holding an OpaquePart (the encrypted
 *   history) plus an `UpstreamMarker` (origin `responses-compaction`) whose `beforeIndex` is that
 *   message; `item_reference` and unknown input items become injected opaque messages.
 *
 * Ids: the first item's `id` in a group, else `m<ctx.indexBase + n>`, n = items kept before it
 * (skipped bad items do not count, so ids survive serialize → parse).
 * Problems never throw: `ctx.warn(itemIndex, text)` is called and the item skipped or kept opaque.
 *
 * `serializeResponseItems(messages)` is the inverse (see items-serialize.ts).
 */
export interface ItemContext {
  /** Shared id allocator (message ids stay unique across several item arrays). */
  readonly ids: IdAllocator
  /** Added to an item's position for fallback ids `m<n>` (e.g. input length for output items). */
  readonly indexBase: number
  /** Index in the final `messages` array of the first message produced (for marker positions). */
  readonly messageBase: number
  /** A recoverable problem with item `itemIndex` (0-based position in `items`). */
  readonly warn: (itemIndex: number, message: string) => void
  /** Optional 1-based source line of an item (Codex JSONL), copied onto `message.line`. */
  readonly lineOf?: (itemIndex: number) => number | undefined
}

export interface ParsedItems {
  readonly messages: Message[]
  readonly markers: UpstreamMarker[]
  /** Items kept (skipped bad ones excluded): the `indexBase` for a following array. */
  readonly accepted: number
}

const ROLE_MAP: Readonly<Record<string, Role>> = {
  user: 'user',
  system: 'system',
  developer: 'system',
}

/** Client-executed calls: the result comes back as a `<type>_output` item with the same call_id. */
const OUTPUT_OF_CALL = /_output$/

function isModelOutput(item: Record<string, unknown>): boolean {
  const type = str(item.type)
  if (type === undefined || type === 'message') return item.role === 'assistant'
  if (type === 'reasoning') return true
  return /_call$/.test(type) || type === 'mcp_list_tools' || type === 'mcp_approval_request'
}

export function parseResponseItems(items: readonly unknown[], ctx: ItemContext): ParsedItems {
  const messages: Message[] = []
  const markers: UpstreamMarker[] = []
  // Fallback ids count kept items only (`index - skipped`), so they survive serialize → parse.
  let skipped = 0
  const skip = (index: number, message: string) => {
    ctx.warn(index, message)
    skipped++
  }
  let group: { parts: Part[]; id: string | undefined; first: number; kept: number } | null = null
  const warnedTypes = new Set<string>()

  const flush = () => {
    if (!group) return
    const line = ctx.lineOf?.(group.first)
    messages.push(
      newMessage({
        id: ctx.ids.next(group.id, ctx.indexBase + group.kept),
        role: 'assistant',
        parts: group.parts,
        line,
      }),
    )
    group = null
  }
  const push = (index: number, message: Omit<Message, 'id'>, preferredId: string | undefined) => {
    flush()
    const line = ctx.lineOf?.(index)
    // One hidden class for every message (shapes.ts); `line` as before: the message's own, else
    // the index's.
    messages.push(
      newMessage({
        ...message,
        id: ctx.ids.next(preferredId, ctx.indexBase + index - skipped),
        line: line ?? message.line,
      }),
    )
  }

  items.forEach((item, index) => {
    if (!isObject(item)) {
      skip(
        index,
        `item skipped: expected an object with \`type\` or \`role\`, got ${describe(item)}`,
      )
      return
    }
    const type = str(item.type)
    const itemId = str(item.id) || undefined
    if (type === undefined && typeof item.role !== 'string') {
      skip(index, 'item skipped: expected an object with `type` or `role`, got neither')
      return
    }
    if (isModelOutput(item)) {
      if (!group) group = { parts: [], id: itemId, first: index, kept: index - skipped }
      pushAll(
        group.parts,
        outputItemParts(item, `${ctx.indexBase + index - skipped}`, (m) => ctx.warn(index, m)),
      )
      return
    }
    if (type === undefined || type === 'message') {
      const role = ROLE_MAP[str(item.role) ?? '']
      if (!role) {
        skip(
          index,
          `item skipped: expected \`role\` user, system, developer or assistant, got ${JSON.stringify(item.role)}`,
        )
        return
      }
      const extra = extraKeys(item, new Set(['type', 'role', 'content']))
      const parts = contentParts(item.content)
      const source: Record<string, unknown> = {}
      if (type === undefined) source.noType = true
      if (typeof item.content === 'string') source.easy = true
      if (item.role !== role) source.role = item.role
      if (extra) source.itemExtra = extra
      push(index, { role, parts, source }, itemId)
      return
    }
    if (OUTPUT_OF_CALL.test(type) || type === 'mcp_approval_response') {
      const callId = typeof item.call_id === 'string' ? item.call_id : null
      if (callId === null && type !== 'mcp_approval_response') {
        ctx.warn(index, `\`${type}\` has no \`call_id\`: it cannot be matched to its call by id`)
      }
      const extra = extraKeys(item, new Set(['type', 'call_id', 'output']))
      const output = item.output
      const shape =
        typeof output === 'string'
          ? 'string'
          : Array.isArray(output)
            ? 'array'
            : output === undefined
              ? 'absent'
              : 'object'
      const content =
        shape === 'string'
          ? [{ kind: 'text' as const, text: output as string }]
          : shape === 'array'
            ? (output as unknown[]).map(partFromResponses)
            : shape === 'object'
              ? [partFromResponses(output)]
              : []
      push(
        index,
        {
          role: 'tool',
          parts: [newToolResult({ callId, content, isError: false })],
          source: { itemType: type, outputShape: shape, ...(extra ? { itemExtra: extra } : {}) },
        },
        itemId,
      )
      return
    }
    if (type === 'compaction' || type === 'compaction_summary') {
      const enc = str(item.encrypted_content) ?? ''
      const beforeIndex = ctx.messageBase + messages.length + (group ? 1 : 0)
      markers.push({
        kind: 'upstream_compaction',
        beforeIndex,
        origin: 'responses-compaction',
        ...lineField(ctx, index),
      })
      push(
        index,
        {
          role: 'user',
          injected: true,
          parts: [
            {
              kind: 'opaque',
              opaque: {
                label: 'encrypted compaction',
                bytes: enc.length,
                ...(enc ? { data: enc } : {}),
              },
              raw: item,
              meta: { wholeItem: true },
            },
          ],
        },
        itemId,
      )
      return
    }
    if (type !== 'item_reference' && !warnedTypes.has(type)) {
      warnedTypes.add(type)
      ctx.warn(index, `unknown item type \`${type}\`: kept as an opaque payload`)
    }
    const size = (JSON.stringify(item) ?? '').length
    push(
      index,
      {
        role: 'user',
        injected: true,
        parts: [
          {
            kind: 'opaque',
            opaque: { label: `${type} item`, bytes: size },
            raw: item,
            meta: { wholeItem: true },
          },
        ],
      },
      itemId,
    )
  })
  flush()
  return { messages, markers, accepted: items.length - skipped }
}

function lineField(ctx: ItemContext, index: number): { line?: number } {
  const line = ctx.lineOf?.(index)
  return line !== undefined ? { line } : {}
}
