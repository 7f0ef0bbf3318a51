import {
  ENGINE,
  perProcess,
  replayRatio,
  showSteps as steps,
  type CompactionBench,
} from './compaction.ts'
import { showKinds } from './replay-kinds.ts'
import type { Timing } from './timing.ts'
import { pushAll } from '../src/engine/arrays.ts'

const cell = (t: Timing) => `${t.medianMs} (${t.minMs}–${t.maxMs}, ${t.runs})`
const yes = (ok: boolean) => (ok ? 'yes' : '**no**')
const k = (n: number) => `${(n / 1000).toFixed(0)}k`

/** The compaction section of RESULTS.md. */
export function renderCompaction(c: CompactionBench): string[] {
  const t = c.targets
  const out: string[] = [
    '',
    `## Compaction on ${c.messages.toLocaleString('en')} generated Claude Code messages`,
    '',
    `${c.tokens.toLocaleString('en')} o200k tokens (first ${c.messages} messages of a ${(c.sourceBytes / 1e6).toFixed(1)} MB transcript; ${(c.modelMessageBytes / 1e6).toFixed(1)} MB as AI SDK ModelMessage JSON). Count + group once (\`prepare\`): **${c.prepareMs} ms**. Times in ms: median (min–max, n).`,
    '',
    `Targets (issue 14): re-plan ≤ 4× \`pruneMessages\` (fastest configuration ${t.pruneFastestMs} ms → ≤ ${t.replan4xPruneMs} ms) for every preset; replay of ${t.replayCalls.toLocaleString('en')} model calls ≤ ${t.replayMaxMs} ms, of ${t.replay5kCalls.toLocaleString('en')} ≤ ${t.replay5kMaxMs} ms with a ${t.replay5kCalls / t.replayCalls}×/1× time ratio ≤ ${t.replayRatioMax}. (Earlier targets, kept as columns: ≤ 3× the naive pass, ≤ ${t.replanMaxMs} ms; faster than \`pruneMessages\`.)`,
    '',
    '### Peers on the same messages',
    '',
    '| operation | ms | result |',
    '|---|---|---|',
    `| naive stale-read stubber (2 passes over headers, copy-on-write, token delta from cached counts) | ${cell(c.naive.timing)} | ${c.naive.stubbed} results stubbed, ${c.naive.savedTokens.toLocaleString('en')} tokens saved (${((100 * c.naive.savedTokens) / c.tokens).toFixed(0)}%) |`,
  ]
  for (const p of c.prune) {
    out.push(
      `| \`ai\` pruneMessages(${p.config}) | ${cell(p.timing)} | ${p.messagesLeft} messages left |`,
    )
  }
  out.push(
    '',
    `ModelMessages come from our ai-sdk serializer; it wrote \`toolName: ''\` on ${c.toolNamesFilled} tool results (Claude Code results carry no name), filled in from the paired calls before timing.`,
    '',
    '### Re-plan per preset (`compact` on the prepared conversation, counts cached)',
    '',
    `Every timed section starts after a full collection (\`npm run bench\` runs node with \`--expose-gc\`), so none pays for the garbage an earlier one left; collections a section causes itself count. Re-plan = one round (\`checkIdempotence: false\`), timed like the \`pruneMessages\` peer it is held against: two untimed rounds, then the median of the same number of runs. "First round" = the first of those untimed rounds, the first with this preset on the prepared conversation: it builds the strategies' per-conversation indexes before the JIT has warmed to them, as the first edit after choosing a preset does in the app. "Fixed point" = the default run that repeats until nothing changes (once; each further round re-prepares the projection). Rounds as \`CompactionResult.rounds\` reports them (the confirming round is not counted). Scaled = window and absolute token thresholds × the factor that makes the usable window 50% of the transcript. Like the corpus test's \`scale()\` it copies, it also multiplies per-result floors (\`minToolOutputTokens\`, \`protectTokens\`, …), so a scaled preset can touch fewer results than the shipped one. Time by step is the median of three extra instrumented rounds (after a plain one, so they are as warm as the timed re-plans; one alone could catch a collection of the bench's whole heap inside one step): ms inside each strategy (with how many times it ran, when more than once), and \`${ENGINE}\` = everything around them (working view, protections, triggers, fallback, projection, invariant checks). "Re-plan after an edit of every step's own numbers" = the same round with every numeric param of every step changed to a value no earlier run used: per-step memos keyed on a params value (tool-payload-trim, collapse) miss, as they do in the app when the edited field is that step's own. "One step's" = the same with only one step's numbers changed, the step taking turns run by run: a one-field edit in the app (a large one: integers grow by the edit's number, so an edited step can have less to do than the shipped one), where the steps before the edited one are played back from their records (step-records.ts) and it and the steps after it run afresh.`,
    '',
    "| preset | variant | usable window | re-plan | ≤ 4× pruneMessages | first round | re-plan after an edit of every step's own numbers | … of one step's | ≤ 3× naive | < pruneMessages | fixed point (rounds) | changes | tokens before → after | time by step (ms) |",
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
  )
  for (const p of c.presets) {
    const m = p.replan.medianMs
    out.push(
      `| ${p.preset} | ${p.variant} | ${k(p.usableTokens)} | ${cell(p.replan)} | ${yes(m <= t.replan4xPruneMs)} | ${p.firstMs ?? '–'} | ${p.ownEdit ? cell(p.ownEdit) : '–'} | ${p.oneEdit ? cell(p.oneEdit) : '–'} | ${yes(m <= t.replanMaxMs)} | ${yes(m < t.pruneFastestMs)} | ${p.idempotentMs} (${p.rounds}) | ${p.changes} | ${k(p.tokensBefore)} → ${k(p.tokensAfter)}${p.invariantsOk ? '' : ' (invariants **failed**)'} | ${steps(p.stepMs)} |`,
    )
  }
  out.push(
    '',
    `### Replay (\`replay\`: the pipeline before every model call, decisions kept)`,
    '',
    "Presets scaled so that the usable window is 50% of the replayed prefix. The replays run in a Node process of their own (bench/replay.ts), holding only the two replayed sessions as the app's worker holds only its own; per preset, the short and the long replay alternate run by run, so a slow stretch of the machine lands on both medians of the ratio. The ratio still moved by up to ±0.35 from one process to the next on the same code (the heap layout and the JIT differ), so the replays run in five processes one after another: each row is the process with the median ratio, and every process's ratio is given beside it, with the machine's 1-minute load average when the process started. The long replay's working set is five times the short one's, so other work on this shared machine slows it more: on the same code, 14 processes at load 1.7–2.8 read a median of 5.42, against 5.26 at load about 1 (2026-11-28).",
    '',
    'Per call by kind: eleven more replays, every call timed and sorted by what the pipeline did at it — *quiet* (no step ran: every trigger below its threshold), *ran* (a step ran and changed nothing), *fired* (something changed) — as µs per call of that kind (median of the eleven) × calls of that kind. A flat cost per call shows as the same µs for a kind in both rows of a preset; a longer session that spends more of its calls on the costlier kinds (its shape) shows in the counts.',
    '',
    `| preset | messages | calls | ms | on target | 5k/1k ratio (per call × 5) | calls where something fired | last call before → after | time by step (ms) | per call by kind |`,
    '|---|---|---|---|---|---|---|---|---|---|',
  )
  for (const r of c.replay) {
    const long = r.target > t.replayCalls
    const short = c.replay.find((x) => x.preset === r.preset && x.target === t.replayCalls)
    const ratio = long && short ? replayRatio(short, r) : null
    const onTarget = long
      ? `≤ ${t.replay5kMaxMs} ms: ${yes(r.timing.medianMs <= t.replay5kMaxMs)}`
      : `≤ ${t.replayMaxMs} ms: ${yes(r.timing.medianMs <= t.replayMaxMs)}`
    out.push(
      `| ${r.preset} (scaled) | ${r.messages} | ${r.calls} | ${cell(r.timing)} | ${onTarget} | ${ratio === null ? '–' : `${ratio.toFixed(2)} (≤ ${t.replayRatioMax}: ${yes(ratio <= t.replayRatioMax)})${perProcess(r)}`} | ${r.fired} | ${k(r.finalTokens.before)} → ${k(r.finalTokens.after)} | ${steps(r.stepMs)} | ${r.kinds ? showKinds(r.kinds) : '–'} |`,
    )
  }
  pushAll(out, renderRealWindow(c))
  return out
}

/** The same replays under each preset's own window: what the app replays (no target of its own). */
function renderRealWindow(c: CompactionBench): string[] {
  const real = c.replayRealWindow ?? []
  if (real.length === 0) return []
  const t = c.targets
  const out = [
    '',
    "Under each preset's own window (200k, not scaled), as the app replays a session: the long session's context stays at the window for most of the replay, so compaction fires at a large share of its calls (column 7). The 5k/1k ratio then compares a session mostly under its window with one mostly at it, and is given for information, not held to the issue's 5.5. Fewer runs per process (the process with the median scaled ratio).",
    '',
    '| preset | messages | calls | ms | on target | 5k/1k ratio (per call × 5) | calls where something fired | last call before → after | time by step (ms) |',
    '|---|---|---|---|---|---|---|---|---|',
  ]
  for (const r of real) {
    const long = r.target > t.replayCalls
    const short = real.find((x) => x.preset === r.preset && x.target === t.replayCalls)
    const max = long ? t.replay5kMaxMs : t.replayMaxMs
    const ratio = long && short ? replayRatio(short, r).toFixed(2) : '–'
    out.push(
      `| ${r.preset} (own window) | ${r.messages} | ${r.calls} | ${cell(r.timing)} | ≤ ${max} ms: ${yes(r.timing.medianMs <= max)} | ${ratio} | ${r.fired} | ${k(r.finalTokens.before)} → ${k(r.finalTokens.after)} | ${steps(r.stepMs)} |`,
    )
  }
  return out
}
