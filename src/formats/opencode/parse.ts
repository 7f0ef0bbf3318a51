import type { Message, Part, ToolResultPart, UpstreamMarker } from '../../engine/model.ts'
import type { ParseResult, ParseWarning, SniffedInput } from '../types.ts'
import {
  arr,
  fail,
  failAtInput,
  IdAllocator,
  isObject,
  lineOfOffset,
  num,
  ok,
  parseError,
  str,
  warning,
} from '../util.ts'
import { isInfoParts, opencodeShape } from './detect.ts'
import { type Extra, MODEL_PARTS, mapPart, partKeyOf, usageFrom, without } from './parts.ts'

type Obj = Record<string, unknown>

/** Where a position is known only as an id: find its first mention in the text. */
function locate(text: string, id: string | undefined): { line: number; offset: number } {
  if (!id) return { line: 0, offset: 0 }
  const offset = text.indexOf(JSON.stringify(id))
  return offset < 0 ? { line: 0, offset: 0 } : { line: lineOfOffset(text, offset), offset }
}

function records(
  value: unknown,
  shape: 'export' | 'messages' | 'sqlite',
  text: string,
  warnings: ParseWarning[],
): Obj[] {
  const list = Array.isArray(value) ? value : isObject(value) ? arr(value.messages) : []
  const out: Obj[] = []
  list.forEach((item, i) => {
    if (shape === 'sqlite') {
      if (!isObject(item) || !isObject(item.data)) {
        warnings.push(warning(0, 0, `messages[${i}]: expected a row with \`data\`, skipped`))
        return
      }
      const parts = arr(item.parts).map((p) =>
        isObject(p) && isObject(p.data) ? { ...p.data, id: p.id ?? p.data.id } : p,
      )
      out.push({ info: { ...item.data, id: item.id ?? item.data.id }, parts, row: item })
      return
    }
    if (!isInfoParts(item)) {
      const where = isObject(item) && isObject(item.info) ? locate(text, str(item.info.id)) : null
      warnings.push(
        warning(
          where?.line ?? 0,
          where?.offset ?? 0,
          `messages[${i}]: expected an object with \`info\` and \`parts\`, skipped`,
        ),
      )
      return
    }
    out.push(item as Obj)
  })
  return out
}

/** Parse an opencode export / messages array / SQLite dump. Never throws. */
export function parse(input: SniffedInput): ParseResult {
  if (input.kind !== 'json') {
    return failAtInput(input, 'expected an opencode JSON document')
  }
  const found = opencodeShape(input.value)
  if (!found) {
    return fail(
      parseError(
        0,
        0,
        'expected an opencode export `{info, messages}`, an array of `{info, parts}` or a SQLite dump `{session, messages}`',
      ),
    )
  }
  if (found.shape === 'session-only') {
    return fail(
      parseError(
        1,
        0,
        'session info only, no messages: this is an opencode Session.Info file; load the export (`opencode export <id>`) or messages.json instead',
      ),
    )
  }
  const warnings: ParseWarning[] = []
  const text = input.text
  const recs = records(input.value, found.shape, text, warnings)
  const ids = new IdAllocator()
  const messages: Message[] = []
  const markers: UpstreamMarker[] = []
  let lastCompaction: { index: number; part: Obj } | undefined
  let model: string | undefined
  let cwd: string | undefined
  const unknownTypes = new Set<string>()

  recs.forEach((rec) => {
    const info = rec.info as Obj
    const msgId = str(info.id) ?? `m${messages.length}`
    const role = info.role === 'assistant' ? 'assistant' : 'user'
    if (info.role !== 'user' && info.role !== 'assistant') {
      const at = locate(text, str(info.id))
      warnings.push(
        warning(at.line, at.offset, `message ${msgId}: expected role user|assistant, read as user`),
      )
    }
    const parts = arr(rec.parts).filter(isObject)
    for (const p of parts) {
      const t = str(p.type) ?? ''
      if (!MODEL_PARTS.has(t) && !KNOWN_EXTRA.has(t)) unknownTypes.add(t)
    }
    const created = isObject(info.time) ? num(info.time.created) : undefined
    const timestamp = created !== undefined ? new Date(created).toISOString() : undefined
    const envelope: Obj = {
      msgId,
      info,
      ...(rec.row ? { row: without(rec.row as Obj, 'data', 'parts') } : {}),
    }

    if (role === 'assistant') {
      const modelId = str(info.modelID)
      model ??= modelId
      if (isObject(info.path)) cwd ??= str(info.path.cwd)
      const steps = splitSteps(parts)
      steps.forEach((step, k) => {
        const stepId = ids.next(k === 0 ? msgId : `${msgId}#step${k + 1}`, messages.length)
        const built = buildParts(step)
        const finish = step.find((p) => p.type === 'step-finish')
        const usage =
          usageFrom(finish?.tokens, 'opencode step-finish tokens') ??
          (k === steps.length - 1 ? usageFrom(info.tokens, 'opencode message tokens') : undefined)
        messages.push({
          id: stepId,
          role: 'assistant',
          parts: built.parts,
          ...(modelId ? { model: modelId } : {}),
          ...(timestamp ? { timestamp } : {}),
          ...(usage ? { usage } : {}),
          source:
            k === 0
              ? { ...envelope, step: 0, extras: built.extras }
              : { msgId, step: k, extras: built.extras },
        })
        if (built.results.length > 0) {
          messages.push({
            id: ids.next(`${stepId}#results`, messages.length),
            role: 'tool',
            parts: built.results,
            source: { msgId, results: true },
          })
        }
      })
      if (info.summary === true) {
        const summaryIndex = messages.length - steps.length
        const summary = messages
          .slice(summaryIndex)
          .flatMap((m) => m.parts)
          .map((p) => (p.kind === 'text' ? p.text : ''))
          .join('')
        const auto = lastCompaction?.part.auto
        markers.push({
          kind: 'upstream_compaction',
          beforeIndex: lastCompaction?.index ?? summaryIndex,
          origin: 'opencode-compaction',
          summary,
          ...(typeof auto === 'boolean' ? { trigger: auto ? 'auto' : 'manual' } : {}),
          raw: lastCompaction?.part,
        })
        lastCompaction = undefined
      }
      return
    }

    // User message: runs of synthetic (injected) and typed text become separate messages.
    const runs = splitRuns(parts)
    runs.forEach((run, k) => {
      const built = buildParts(run.parts)
      const compaction = run.parts.find((p) => p.type === 'compaction')
      const index = messages.length
      if (compaction) {
        if (lastCompaction) markers.push(orphanMarker(lastCompaction))
        lastCompaction = { index, part: compaction }
      }
      messages.push({
        id: ids.next(k === 0 ? msgId : `${msgId}#s${k + 1}`, index),
        role: 'user',
        parts: built.parts,
        ...(run.injected ? { injected: true } : {}),
        ...(timestamp ? { timestamp } : {}),
        source:
          k === 0
            ? { ...envelope, run: 0, extras: built.extras }
            : { msgId, run: k, extras: built.extras },
      })
    })
  })
  if (lastCompaction) markers.push(orphanMarker(lastCompaction))

  if (messages.length === 0) {
    return fail(
      parseError(0, 0, 'no opencode messages found (expected at least one {info, parts})'),
      warnings,
    )
  }
  const notes: string[] = []
  if (unknownTypes.size > 0)
    notes.push(`unknown part types kept as envelope data: ${[...unknownTypes].join(', ')}`)
  const session = sessionInfo(input.value, found.shape)
  const sessionModel = session && isObject(session.model) ? str(session.model.id) : undefined
  return ok(
    {
      meta: {
        format: 'opencode',
        model: sessionModel ?? model,
        cwd: (session ? str(session.directory) : undefined) ?? cwd,
        sessionId:
          (session ? str(session.id) : undefined) ??
          str((recs[0]?.info as Obj | undefined)?.sessionID),
        title: session ? str(session.title) : undefined,
        wrapper: `opencode ${found.shape === 'export' ? 'export' : found.shape === 'sqlite' ? 'SQLite dump' : 'messages array'}`,
        ...(notes.length > 0 ? { notes } : {}),
      },
      system: [],
      tools: [],
      messages,
      markers,
      source: { shape: found.shape, envelope: envelopeOf(input.value, found.shape) },
    },
    warnings,
  )
}

const KNOWN_EXTRA = new Set([
  'step-start',
  'step-finish',
  'patch',
  'snapshot',
  'agent',
  'subtask',
  'retry',
])

function orphanMarker(c: { index: number; part: Obj }): UpstreamMarker {
  return {
    kind: 'upstream_compaction',
    beforeIndex: c.index,
    origin: 'opencode-compaction',
    ...(typeof c.part.auto === 'boolean' ? { trigger: c.part.auto ? 'auto' : 'manual' } : {}),
    raw: c.part,
  }
}

function sessionInfo(value: unknown, shape: string): Obj | undefined {
  if (!isObject(value)) return undefined
  if (shape === 'export' && isObject(value.info)) return value.info
  if (shape === 'sqlite' && isObject(value.session)) return value.session
  return undefined
}

/** Everything of the top-level object except the messages, for the serializer. */
function envelopeOf(value: unknown, shape: string): Obj | undefined {
  if (shape === 'messages' || !isObject(value)) return undefined
  return without(value, 'messages')
}

/** Split an assistant message's parts at `step-start` boundaries (one model call each). */
function splitSteps(parts: readonly Obj[]): Obj[][] {
  const steps: Obj[][] = []
  let current: Obj[] = []
  for (const p of parts) {
    if (
      p.type === 'step-start' &&
      current.some((q) => q.type === 'step-start' || MODEL_PARTS.has(str(q.type) ?? ''))
    ) {
      steps.push(current)
      current = []
    }
    current.push(p)
  }
  steps.push(current)
  return steps
}

/** Split a user message into runs of typed vs synthetic (injected) content. */
function splitRuns(parts: readonly Obj[]): { injected: boolean; parts: Obj[] }[] {
  const runs: { injected: boolean; parts: Obj[] }[] = []
  let pending: Obj[] = []
  for (const p of parts) {
    const t = p.type
    const flag = t === 'text' ? p.synthetic === true : t === 'compaction' ? true : undefined
    const last = runs[runs.length - 1]
    if (flag === undefined) {
      // Files and envelope parts join the run they sit in.
      if (last) last.parts.push(p)
      else pending.push(p)
      continue
    }
    if (!last || last.injected !== flag) runs.push({ injected: flag, parts: [...pending, p] })
    else last.parts.push(p)
    pending = []
  }
  if (pending.length > 0 || runs.length === 0) runs.push({ injected: false, parts: pending })
  return runs
}

/** Map one step/run: model parts, their tool results, and anchored envelope parts. */
function buildParts(parts: readonly Obj[]): {
  parts: Part[]
  results: ToolResultPart[]
  extras: Extra[]
} {
  const out: Part[] = []
  const results: ToolResultPart[] = []
  const extras: Extra[] = []
  let waiting: Obj[] = []
  for (const p of parts) {
    if (!MODEL_PARTS.has(str(p.type) ?? '')) {
      waiting.push(p)
      continue
    }
    const before = partKeyOf(p.id) ?? null
    for (const w of waiting)
      extras.push(before === null ? { before, at: out.length, part: w } : { before, part: w })
    waiting = []
    const mapped = mapPart(p)
    out.push(mapped.part)
    if (mapped.result) results.push(mapped.result)
  }
  for (const w of waiting) extras.push({ before: null, part: w })
  return { parts: out, results, extras }
}
