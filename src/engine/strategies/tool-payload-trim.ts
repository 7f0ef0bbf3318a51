/**
 * `tool-payload-trim` — adachsoft/ai-agent-context-tool-compaction (`tool_compaction`, v0.2.0).
 *
 * Algorithm (README "Algorithm Overview"): every call gets the group key
 * `{tool}|{identifier fields}` (`__tool_only__` when the tool has no configured identifier
 * fields). Scanning from the newest message to the oldest, the first result seen for a key and
 * the first call seen for a key are kept intact (a result also protects its own call); every
 * older call/result of the same key has its top-level fields over `inputTrimBytes` /
 * `outputTrimBytes` bytes replaced by `"[omitted]"`, with a `_tool_compaction` meta recording
 * `thresholdBytes` and, per field, `bytes` and `sha256` of PHP's `json_encode` of the original.
 * Identifier fields are never trimmed; `excludedTools` are never touched.
 *
 * Mapping to our model: arguments are the call's JSON object (`argsRaw`); a result whose text is a
 * JSON object is the result array (trimmed in place). Any other result text is treated as the
 * result `{content: <text>}` of the README's Example A: when `content` is over the threshold the
 * text becomes the `[tool_compaction] …` placeholder the PHP writes into the message content (the
 * trimmed array is kept in the part's `meta.toolCompaction`). Sizes are PHP byte lengths.
 *
 * Scan order: messages newest → oldest and, inside a message, parts last → first, so "latest"
 * is position in the conversation even when parallel results share one message. Results are
 * keyed through their call (our pairing, not PHP's id map, so reused ids stay apart); a result
 * with no call has no key and is left alone.
 */
import type { StrategyContext } from '../compaction/context.ts'
import { defineStrategy } from '../compaction/strategy.ts'
import type { Part, ToolCallPart, ToolResultPart } from '../model.ts'
import type { Prepared } from '../compaction/prepared.ts'
import type { PartRef } from '../pairing.ts'
import { groupKey, showKey, type CallFacts } from './tool-payload-trim/keys.ts'
import type { PhpArray } from './tool-payload-trim/php-json.ts'
import { toolPayloadTrimSchema, type ToolPayloadTrimParams } from './tool-payload-trim/params.ts'
import { internParams } from './intern-params.ts'
import { decodeArgs } from './tool-payload-trim/decode.ts'
import { trimCall, trimResult, type TrimEnv } from './tool-payload-trim/trim.ts'
import { recall, remember } from './tool-payload-trim/words.ts'
import type { Out } from './playback.ts'
import { createStepRecords } from './step-records.ts'

// A call's group key is a pure function of its (immutable) part, name and identifier fields
// (the same array while the params object is the same): one per part, not one per re-plan.
const keys = new WeakMap<
  ToolCallPart,
  { readonly name: string; readonly identifiers: readonly string[]; readonly key: string }
>()

function keyOf(
  part: ToolCallPart,
  name: string,
  args: PhpArray | null,
  identifiers: readonly string[],
): string {
  const hit = keys.get(part)
  if (hit && hit.name === name && hit.identifiers === identifiers) return hit.key
  const key = groupKey(name, args, identifiers)
  keys.set(part, { name, identifiers, key })
  return key
}

/**
 * Call facts by call index per (prepared conversation, identifier-fields value), with the part
 * each was made from: a re-plan asks for the same calls' facts again (5,000 objects per re-plan of
 * the bench's transcript), and they are a pure function of the part, the pairing and the
 * identifier fields — not of the thresholds, so an edit of those (every keystroke on them in the
 * app) keeps the facts, and with them every per-part memo that checks the facts it was made from.
 */
interface FactsMemo {
  /** JSON of `toolIdentifierFields` (a value key: each edit brings a new params object). */
  readonly fields: string
  readonly facts: (CallFacts | undefined)[]
  readonly from: (Part | undefined)[]
}
const factsMemos = new WeakMap<Prepared, FactsMemo>()
/** The JSON of a params object's identifier fields, once per (interned) params object. */
const fieldTexts = new WeakMap<ToolPayloadTrimParams, string>()
function factsMemoOf(prepared: Prepared, p: ToolPayloadTrimParams): FactsMemo {
  let fields = fieldTexts.get(p)
  if (fields === undefined) {
    fields = JSON.stringify(p.toolIdentifierFields)
    fieldTexts.set(p, fields)
  }
  const hit = factsMemos.get(prepared)
  if (hit && hit.fields === fields) return hit
  const made: FactsMemo = { fields, facts: [], from: [] }
  factsMemos.set(prepared, made)
  return made
}
/**
 * The identifier fields of a tool without any: one shared array, so the per-part memos keyed by
 * it (group keys, trims) hit on every re-plan instead of missing on a fresh `[]` per call.
 */
const NO_FIELDS: readonly string[] = Object.freeze([])

/**
 * This step's runs, played back on a view in the state one started from (step-records.ts): it
 * reads the view, the protections and its params (no window, round or summariser).
 */
const records = createStepRecords()
const NO_INPUTS = [] as const

export const toolPayloadTrimStrategy = defineStrategy({
  id: 'tool-payload-trim',
  label: 'Tool payload trim',
  source: 'adachsoft/ai-agent-context-tool-compaction',
  description:
    'Per group key {tool}|{identifier fields} (tools without configured identifier fields share the key {tool}|__tool_only__), keeps the latest call and result intact and, in older ones, replaces top-level argument/result fields over inputTrimBytes/outputTrimBytes bytes (default 100/100, PHP strlen/json_encode sizes) with "[omitted]" plus a _tool_compaction meta (bytes, sha256 of the json_encode of the original). Identifier fields are never trimmed; excludedTools are never touched; a plain-text result becomes "[tool_compaction] Tool result compacted for tool=…, callId=…. Large fields omitted."',
  schema: toolPayloadTrimSchema,
  run(ctx, params) {
    // The same params value as an earlier re-plan is that re-plan's object: the per-part memos
    // (keys, trims, sentences) are keyed on it (intern-params.ts).
    const p = internParams('tool-payload-trim', params)
    records.run(ctx, p, NO_INPUTS, () => trimPayloads(ctx, p))
  },
})

function trimPayloads(ctx: StrategyContext, p: ToolPayloadTrimParams): void {
  const out: Out = ctx
  const { conversation, grouping } = ctx.view.prepared
  const { calls } = ctx.pairing
  const excluded = new Set(p.excludedTools)
  /** This run's facts by call index: the first answer holds for the whole run. */
  const asked: (CallFacts | undefined)[] = new Array<CallFacts | undefined>(calls.length)
  const memo = factsMemoOf(ctx.view.prepared, p)
  /** Group key → the occurrence that claimed it (the latest one). */
  const seen = new Map<string, PartRef>()
  const protectedCalls = new Set<number>()
  const env: TrimEnv = { ctx, p, out }

  const factsOf = (ci: number): CallFacts => {
    const known = ci >= 0 ? asked[ci] : undefined
    if (known) return known
    const info = calls[ci]
    const current = info ? ctx.view.part(info) : null
    const original = info ? conversation.messages[info.message]?.parts[info.part] : undefined
    const part = current?.kind === 'tool_call' ? current : original
    // Made from the same part under the same params in an earlier re-plan: the same facts.
    const earlier = ci >= 0 && part !== undefined ? memo.facts[ci] : undefined
    if (earlier && memo.from[ci] === part) {
      asked[ci] = earlier
      return earlier
    }
    const name = info?.name ?? 'unknown'
    const args = part?.kind === 'tool_call' ? decodeArgs(part) : null
    const identifiers = Object.hasOwn(p.toolIdentifierFields, name)
      ? (p.toolIdentifierFields[name] ?? NO_FIELDS)
      : NO_FIELDS
    const made: CallFacts = {
      name,
      callId: info?.callId ?? '',
      key:
        part?.kind === 'tool_call'
          ? keyOf(part, name, args, identifiers)
          : groupKey(name, args, identifiers),
      identifiers,
      args,
    }
    if (ci >= 0) {
      asked[ci] = made
      if (part !== undefined) {
        memo.facts[ci] = made
        memo.from[ci] = part
      }
    }
    return made
  }

  for (let m = ctx.view.limit - 1; m >= 0; m--) {
    const group = grouping.groupOfMessage[m] as number
    if (ctx.view.isExcluded(group)) continue
    const count = conversation.messages[m]?.parts.length ?? 0
    for (let i = count - 1; i >= 0; i--) {
      const part = ctx.view.partAt(m, i)
      // The shared address: it ends up in this part's decision (see compaction/refs.ts).
      if (part?.kind === 'tool_result') onResult(ctx.view.refAt(m, i), group, part)
      else if (part?.kind === 'tool_call') onCall(ctx.view.refAt(m, i), group, part)
    }
  }

  /** A call or result of a tool in excludedTools: left untouched, and said so. */
  function skipExcluded(
    what: 'call' | 'result',
    ref: PartRef,
    group: number,
    part: ToolCallPart | ToolResultPart,
    f: CallFacts,
  ): void {
    // Sentences are recalled per part (words.ts): only a first sight words them.
    const why =
      recall(part, f, 'excluded') ??
      remember(
        part,
        'excluded',
        () =>
          `${f.name} ${what} ${part.callId ?? '(no id)'} left untouched: ${f.name} is in excludedTools.`,
      )
    out.skip(group, 'denied_by_policy', why, ref)
  }

  function onResult(ref: PartRef, group: number, part: ToolResultPart): void {
    const r = ctx.pairing.results[ctx.resultIndexAt(ref)]
    if (!r || r.call < 0) {
      out.skip(
        group,
        'denied_by_policy',
        `Orphan result ${part.callId ?? '(no id)'}${part.name ? ` (${part.name})` : ''} left untouched: it has no call, so no group key (adachsoft keys a result through its call's arguments).`,
        ref,
      )
      return
    }
    const f = factsOf(r.call)
    if (excluded.has(f.name)) return skipExcluded('result', ref, group, part, f)
    const newer = seen.get(f.key)
    if (!newer) {
      seen.set(f.key, ref)
      protectedCalls.add(r.call)
      const why =
        recall(part, f, 'latest') ??
        remember(
          part,
          'latest',
          () =>
            `${f.name} result ${part.callId ?? '(no id)'} kept intact: the latest result for group key ${showKey(f.key)} (its call is kept too).`,
        )
      out.skip(group, 'keep_recent', why, ref)
      return
    }
    trimResult(env, ref, group, part, f, newer)
  }

  function onCall(ref: PartRef, group: number, part: ToolCallPart): void {
    const ci = ctx.callIndexAt(ref)
    const f = factsOf(ci)
    if (excluded.has(f.name)) return skipExcluded('call', ref, group, part, f)
    if (protectedCalls.has(ci)) {
      const why =
        recall(part, f, 'result_latest') ??
        remember(
          part,
          'result_latest',
          () =>
            `${f.name} call ${part.callId ?? '(no id)'} kept intact: its result is the latest for group key ${showKey(f.key)}.`,
        )
      out.skip(group, 'keep_recent', why, ref)
      return
    }
    const newer = seen.get(f.key)
    if (!newer) {
      seen.set(f.key, ref)
      protectedCalls.add(ci)
      const why =
        recall(part, f, 'latest') ??
        remember(
          part,
          'latest',
          () =>
            `${f.name} call ${part.callId ?? '(no id)'} kept intact: the latest call for group key ${showKey(f.key)}.`,
        )
      out.skip(group, 'keep_recent', why, ref)
      return
    }
    trimCall(env, ref, group, part, f, newer)
  }
}
