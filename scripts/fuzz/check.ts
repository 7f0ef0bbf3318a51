/**
 * One fuzz input through everything a user can do with it, counting what went wrong:
 *
 * - crash: an exception escaped an importer, the engine, a serializer or the export (or an
 *   importer's own catch-all fired: "failed unexpectedly");
 * - lost lines: a complete, valid JSON line of a JSON Lines input that is neither written back by
 *   the format's serializer nor named by a warning (nothing may vanish silently);
 * - violations: an invariant of the compaction result failed, a strategy threw (`failed_open`),
 *   or the result does not survive being written (re-import fails, or compacting the written
 *   file again changes something: the fixed point of issue 10);
 * - slow: the input took longer than the hang limit (the long run also kills real hangs).
 */
import { presetConfig, PRESET_IDS, type PresetId } from '../../src/config/presets.ts'
import { scale } from '../../src/config/scale.ts'
import type { CompactionConfig } from '../../src/config/schema.ts'
import { toEngineConfig, validateConfig } from '../../src/config/validate.ts'
import { prepare } from '../../src/engine/compaction/prepared.ts'
import { parseJsonBounded } from '../../src/engine/json.ts'
import { compact } from '../../src/engine/compaction/run.ts'
import type { EngineConfig } from '../../src/engine/compaction/types.ts'
import { inspectConversation } from '../../src/engine/inspect.ts'
import type { Conversation, FormatId } from '../../src/engine/model.ts'
import { STRATEGY_REGISTRY } from '../../src/engine/strategies/index.ts'
import { createDigestSummarizer } from '../../src/engine/summarize/digest.ts'
import type { TextCounter } from '../../src/engine/tokens/types.ts'
import { estimateCounter } from '../../src/engine/tokens/index.ts'
import { exportCompactedTranscript } from '../../src/export/transcript.ts'
import { isRecordItem } from '../../src/formats/compaction-record.ts'
import { importerFor, importTranscript, importTranscriptBytes } from '../../src/formats/index.ts'
import type { Rng } from '../sample/prng.ts'
import { detailOf } from '../../src/engine/compaction/sentence.ts'

export interface Outcome {
  readonly format: FormatId | null
  readonly imported: boolean
  readonly crash: string | null
  readonly lostLines: number
  /** Kept, but written back normalised (informational). */
  readonly rewrittenLines: number
  /** Parts that a plain write + read of the import does not give back (every format). */
  readonly lostMessages: number
  readonly violations: readonly string[]
  /** The compaction changed something (so the fixed-point check had work to do). */
  readonly changed: boolean
  /** Compacting the written output again changed something (counted in violations too). */
  readonly furtherChanges: number
  readonly ms: number
  readonly config: string
}

const strict = (b: Uint8Array) => new TextDecoder('utf-8', { fatal: true }).decode(b)
const JSONL_FORMATS: ReadonlySet<FormatId> = new Set(['claude-code', 'codex'])

/** Canonical JSON text (sorted keys) for comparing lines regardless of key order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  )
}

/**
 * Line numbers that reached the conversation: the lines messages were read from, and the lines a
 * JSON Lines importer keeps aside for the round trip (`source.extras`).
 */
export function representedLines(conversation: Conversation): Set<number> {
  const lines = new Set<number>()
  const add = (records: unknown) => {
    if (!Array.isArray(records)) return
    for (const r of records as { line?: unknown }[])
      if (typeof r?.line === 'number') lines.add(r.line)
  }
  for (const m of conversation.messages) {
    if (m.line !== undefined) lines.add(m.line)
    add(m.source?.lines)
  }
  add(conversation.source?.extras)
  return lines
}

/**
 * Complete, valid JSON lines of a JSON Lines input, sorted by fate: `lost` reached neither the
 * conversation nor the written file and no warning names them (must be 0); `rewritten` are kept
 * but written back normalised (a malformed value such as `"text": null` written as `""`).
 */
export function lineFates(
  text: string,
  written: string,
  warnedLines: ReadonlySet<number>,
  represented: ReadonlySet<number>,
): { lost: number; rewritten: number; lostLines: number[] } {
  const out = new Set<string>()
  for (const l of written.split('\n')) {
    if (!l.trim()) continue
    try {
      out.add(canonical(parseJsonBounded(l).value))
    } catch {
      out.add(l)
    }
  }
  let lost = 0
  let rewritten = 0
  const lostLines: number[] = []
  const lines = text.replace(/^\ufeff/, '').split('\n')
  lines.forEach((raw, i) => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw
    if (!line.trim() || warnedLines.has(i + 1)) return
    let value: unknown
    try {
      value = parseJsonBounded(line).value // bounded as the importer reads it
    } catch {
      return // not a complete line: the importer warns about those itself
    }
    if (isRecordItem(value)) return // our own compaction record is read, not kept
    if (out.has(canonical(value))) return
    if (represented.has(i + 1)) rewritten++
    else {
      lost++
      lostLines.push(i + 1)
    }
  })
  return { lost, rewritten, lostLines }
}

/**
 * Every format: what a plain round trip (write, read back) loses — parts that do not come back,
 * counted by role and kind. Order and message boundaries may change (a format merges consecutive
 * messages of a role, or messages that share an id), and parts a format adds (a call rebuilt for
 * a result kept on its own) are no loss.
 */
export function roundTripLoss(conversation: Conversation, written: string): number {
  const again = importTranscript(written, { format: conversation.meta.format })
  const before = tally(conversation)
  if (!again.result.ok) return [...before.values()].reduce((a, b) => a + b, 0)
  const after = tally(again.result.conversation)
  let lost = 0
  for (const [key, n] of before) lost += Math.max(0, n - (after.get(key) ?? 0))
  return lost
}

function tally(c: Conversation): Map<string, number> {
  const counts = new Map<string, number>()
  for (const m of c.messages)
    for (const p of m.parts) {
      const key = `${m.role}:${p.kind}`
      counts.set(key, (counts.get(key) ?? 0) + 1)
    }
  return counts
}

export type ConfigChoice = { readonly label: string; readonly config: EngineConfig }

/** A preset as shipped or scaled to the input, or a random variation of one (valid by construction). */
export function chooseConfig(rng: Rng, index: number, totalTokens: number): ConfigChoice {
  const id = PRESET_IDS[Math.floor(index / 2) % PRESET_IDS.length] as PresetId
  const base = presetConfig(id)
  const usable = (c: EngineConfig) =>
    c.window.contextTokens - c.window.reservedOutput - c.window.buffer
  if (index % 2 === 0) {
    const engine = toEngineConfig(base)
    if (rng.chance(0.25)) return { label: `${id} as shipped`, config: engine }
    const fraction = 0.15 + rng.next()
    return {
      label: `${id} scaled to ${Math.round(fraction * 100)}%`,
      config: scale(engine, (fraction * Math.max(1, totalTokens)) / usable(engine)),
    }
  }
  const random = randomConfig(rng, base)
  const engine = toEngineConfig(random)
  const fraction = 0.1 + rng.next() * 1.2
  return {
    label: `random from ${id}`,
    config: scale(engine, (fraction * Math.max(1, totalTokens)) / usable(engine)),
  }
}

/**
 * A random config: a preset's steps shuffled, toggled, re-triggered and mixed with steps of other
 * presets, numeric params perturbed, protections and fallback randomised. Anything the validator
 * refuses is dropped back to the preset's own value, so every config run is a valid one.
 */
export function randomConfig(rng: Rng, base: CompactionConfig): CompactionConfig {
  const others = PRESET_IDS.flatMap((p) => presetConfig(p).pipeline)
  const steps = base.pipeline.map((s) => ({ ...s, params: { ...s.params } }))
  if (rng.chance(0.4)) steps.push(structuredClone(rng.pick(others)))
  if (rng.chance(0.2)) steps.push(structuredClone(rng.pick(others)))
  if (rng.chance(0.3)) steps.reverse()
  const perturbed = steps.map((s) => {
    const params: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(s.params)) {
      params[k] =
        typeof v === 'number' && rng.chance(0.5)
          ? Number.isInteger(v)
            ? Math.max(0, Math.round(v * (0.3 + rng.next() * 2)))
            : v * (0.5 + rng.next())
          : v
    }
    const trigger = rng.chance(0.3)
      ? {
          mode: rng.pick(['all', 'any'] as const),
          conditions: [
            rng.pick([
              { kind: 'window_fraction' as const, over: 0.05 + rng.next() * 0.9 },
              { kind: 'messages' as const, over: rng.int(0, 200) },
              { kind: 'groups' as const, over: rng.int(0, 100) },
              { kind: 'turns' as const, over: rng.int(0, 20) },
              { kind: 'tool_results' as const, over: rng.int(0, 50) },
            ]),
          ],
        }
      : s.trigger
    const target = rng.chance(0.2)
      ? { kind: 'window_fraction' as const, under: 0.1 + rng.next() * 0.85 }
      : s.target
    return {
      ...s,
      enabled: rng.chance(0.9),
      params,
      ...(trigger ? { trigger } : {}),
      ...(target ? { target } : {}),
    }
  })
  const candidate = {
    ...base,
    protections: {
      ...base.protections,
      recentTurns: rng.int(0, 3),
      system: rng.chance(0.9),
      pendingCalls: rng.chance(0.9),
      latestThinking: rng.chance(0.9),
      tools: rng.chance(0.2) ? ['Read', 'read_file', 'skill'] : base.protections.tools,
    },
    pipeline: perturbed,
    fallback: { enabled: rng.chance(0.5), strict: rng.chance(0.2) },
  }
  const valid = validateConfig(candidate, STRATEGY_REGISTRY)
  if (valid.ok) return valid.config
  // Keep the structural randomisation, drop the param perturbation that the schema refused.
  const fallback = validateConfig({ ...candidate, pipeline: steps }, STRATEGY_REGISTRY)
  return fallback.ok ? fallback.config : base
}

const summarizer = createDigestSummarizer()

const message = (e: unknown) => (e instanceof Error ? `${e.name}: ${e.message}` : String(e))

/** Run one input through import, inspection, compaction, export, re-import and re-compaction. */
export async function checkInput(
  bytes: Uint8Array,
  text: string,
  rng: Rng,
  index: number,
  counter: TextCounter = estimateCounter,
): Promise<Outcome> {
  const started = performance.now()
  const base = {
    lostLines: 0,
    rewrittenLines: 0,
    lostMessages: 0,
    violations: [] as string[],
    changed: false,
    furtherChanges: 0,
  }
  const done = (o: Partial<Outcome> & { format: FormatId | null; imported: boolean }): Outcome => ({
    ...base,
    crash: null,
    config: '',
    ...o,
    ms: performance.now() - started,
  })
  let conversation: Conversation
  let format: FormatId
  let warnedLines: Set<number>
  try {
    const outcome = importTranscriptBytes(bytes, {}, strict)
    if (!outcome.result.ok) {
      const e = outcome.result.error
      if (/failed unexpectedly|call stack/.test(e.message))
        return done({
          format: outcome.detection?.format ?? null,
          imported: false,
          crash: e.message,
        })
      return done({ format: null, imported: false })
    }
    conversation = outcome.result.conversation
    format = conversation.meta.format
    warnedLines = new Set(outcome.result.warnings.map((w) => w.line))
    inspectConversation(conversation, counter)
  } catch (e) {
    return done({ format: null, imported: false, crash: `import: ${message(e)}` })
  }

  let lost = 0
  let rewritten = 0
  let lostMessages = 0
  try {
    const written = importerFor(format).serialize(conversation)
    if (JSONL_FORMATS.has(format)) {
      const fates = lineFates(text, written, warnedLines, representedLines(conversation))
      lost = fates.lost
      rewritten = fates.rewritten
    }
    lostMessages = roundTripLoss(conversation, written)
  } catch (e) {
    return done({ format, imported: true, crash: `serialize: ${message(e)}` })
  }

  const violations: string[] = []
  let choice: ConfigChoice | undefined
  try {
    const prepared = prepare(conversation, counter)
    const total =
      prepared.staticTokens +
      prepared.systemTokens +
      prepared.messageTokens.reduce((a, b) => a + b, 0)
    choice = chooseConfig(rng, index, total)
    const deps = { counter, summarizer }
    const first = await compact(prepared, choice.config, deps, STRATEGY_REGISTRY)
    for (const c of first.invariants.checks)
      if (!c.ok) violations.push(`invariant ${c.id}: ${c.detail}`)
    for (const d of first.decisions)
      if (d.kind === 'failed_open') violations.push(`failed_open ${d.strategy}: ${detailOf(d)}`)
    let furtherChanges = 0
    if (first.changes > 0) {
      const out = exportCompactedTranscript(first)
      const again = importTranscript(out.text, { format })
      if (!again.result.ok)
        violations.push(`written output does not re-import: ${again.result.error.message}`)
      else {
        const second = await compact(
          prepare(again.result.conversation, counter),
          choice.config,
          deps,
          STRATEGY_REGISTRY,
        )
        furtherChanges = second.changes
        if (second.changes > 0)
          violations.push(`compacting the written output again changed ${second.changes} more`)
      }
    }
    return done({
      format,
      imported: true,
      lostLines: lost,
      rewrittenLines: rewritten,
      lostMessages,
      violations,
      changed: first.changes > 0,
      furtherChanges,
      config: choice.label,
    })
  } catch (e) {
    return done({
      format,
      imported: true,
      lostLines: lost,
      rewrittenLines: rewritten,
      lostMessages,
      crash: `engine: ${message(e)}`,
      config: choice?.label ?? '',
    })
  }
}

/** Running totals over many inputs. */
export class Tally {
  inputs = 0
  imported = 0
  crashes = 0
  hangs = 0
  lostLines = 0
  inputsWithLostLines = 0
  lostMessages = 0
  rewrittenLines = 0
  violations = 0
  changing = 0
  furtherChanges = 0
  maxMs = 0
  totalMs = 0
  readonly byFormat = new Map<string, number>()
  readonly byConfig = new Map<string, number>()
  readonly examples: { index: number; kind: string; detail: string }[] = []

  add(index: number, o: Outcome): void {
    this.inputs++
    if (o.imported) this.imported++
    if (o.crash) this.example(index, 'crash', o.crash)
    if (o.crash) this.crashes++
    this.lostLines += o.lostLines
    this.rewrittenLines += o.rewrittenLines
    this.lostMessages += o.lostMessages
    if (o.lostMessages > 0)
      this.example(index, 'round trip', `${o.lostMessages} part(s) not given back, ${o.format}`)
    if (o.lostLines > 0) {
      this.inputsWithLostLines++
      this.example(index, 'lost lines', `${o.lostLines} line(s), ${o.format}`)
    }
    if (o.violations.length > 0) {
      this.violations++
      this.example(index, 'violation', `${o.format} ${o.config}: ${o.violations[0]}`)
    }
    if (o.changed) this.changing++
    if (o.furtherChanges > 0) this.furtherChanges++
    this.maxMs = Math.max(this.maxMs, o.ms)
    this.totalMs += o.ms
    const f = o.format ?? '(refused)'
    this.byFormat.set(f, (this.byFormat.get(f) ?? 0) + 1)
    const preset = o.config
      .replace(/ (as shipped|scaled to \d+%)$/, '')
      .replace(/^random from /, '')
    if (preset)
      this.byConfig.set(
        o.config.startsWith('random') ? 'random configs' : preset,
        (this.byConfig.get(o.config.startsWith('random') ? 'random configs' : preset) ?? 0) + 1,
      )
  }

  hang(index: number, detail: string): void {
    this.inputs++
    this.hangs++
    this.example(index, 'hang', detail)
  }

  private example(index: number, kind: string, detail: string): void {
    if (this.examples.length < 50) this.examples.push({ index, kind, detail: detail.slice(0, 300) })
  }
}
