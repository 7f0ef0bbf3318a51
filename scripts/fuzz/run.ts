/**
 * The long fuzz run (issue 10): `npm run fuzz` mutates the real transcripts of ../shared/corpus
 * (100,000 inputs by default), imports each one and compacts it with a preset (every preset in
 * turn, as shipped or scaled to the input) or a random config, writes the result, re-imports it
 * and compacts it again. It counts crashes, hangs, lost complete lines and invariant violations,
 * then runs the double-compaction check over every corpus file × every preset with exact counts,
 * and writes the figures to bench/FUZZ.md and bench/fuzz-results.json.
 *
 *   npm run fuzz                                  100,000 inputs, a fresh seed (printed)
 *   npm run fuzz -- --inputs 5000 --seed 42       a shorter, reproducible run
 *   npm run fuzz -- --seed 42 --only 1234         one input, with its mutations and outcome
 *
 * Inputs run in a child process; when one takes longer than --hang-ms (60 s) the child is killed,
 * the input counted as a hang and saved under bench/fuzz-failures/, and a new child goes on.
 */
import { fork, type ChildProcess } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { format as prettierFormat, resolveConfig } from 'prettier'
import { PRESET_IDS, presetConfig } from '../../src/config/presets.ts'
import { pushAll } from '../../src/engine/arrays.ts'
import { scaleTo } from '../../src/config/scale.ts'
import { toEngineConfig } from '../../src/config/validate.ts'
import { prepare } from '../../src/engine/compaction/prepared.ts'
import { compact } from '../../src/engine/compaction/run.ts'
import { STRATEGY_REGISTRY } from '../../src/engine/strategies/index.ts'
import { createDigestSummarizer } from '../../src/engine/summarize/digest.ts'
import { loadCounter } from '../../src/engine/tokens/index.ts'
import type { TextCounter } from '../../src/engine/tokens/types.ts'
import { exportCompactedTranscript } from '../../src/export/transcript.ts'
import { importTranscript, importTranscriptBytes } from '../../src/formats/index.ts'
import { checkInput, Tally, type Outcome } from './check.ts'
import { inputAt } from './input.ts'
import { corpusSeeds } from './seeds.ts'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..')

interface Options {
  inputs: number
  seed: number
  corpus: string
  hangMs: number
  exactEvery: number
  out: string
  only: number | null
  skipCorpusCheck: boolean
}

function options(argv: readonly string[]): Options {
  const o: Options = {
    inputs: 100_000,
    seed: Math.floor(Math.random() * 2 ** 31),
    corpus: resolve(ROOT, '../shared/corpus'),
    hangMs: 60_000,
    exactEvery: 50,
    out: resolve(ROOT, 'bench/FUZZ.md'),
    only: null,
    skipCorpusCheck: false,
  }
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]
    const value = () => {
      const v = argv[++i]
      if (v === undefined) usage(`${flag} needs a value`)
      return v as string
    }
    if (flag === '--inputs') o.inputs = Number(value())
    else if (flag === '--seed') o.seed = Number(value())
    else if (flag === '--corpus') o.corpus = resolve(value())
    else if (flag === '--hang-ms') o.hangMs = Number(value())
    else if (flag === '--exact-every') o.exactEvery = Number(value())
    else if (flag === '--out') o.out = resolve(value())
    else if (flag === '--only') o.only = Number(value())
    else if (flag === '--skip-corpus-check') o.skipCorpusCheck = true
    else usage(`unknown option ${flag}`)
  }
  if (!Number.isSafeInteger(o.inputs) || o.inputs < 1) usage('--inputs must be a positive integer')
  if (!Number.isSafeInteger(o.seed)) usage('--seed must be an integer')
  return o
}

function usage(message: string): never {
  console.error(
    `${message}\nusage: npm run fuzz -- [--inputs N] [--seed S] [--corpus DIR] [--hang-ms MS] [--exact-every N] [--out FILE.md] [--only INDEX] [--skip-corpus-check]`,
  )
  process.exit(2)
}

const FAILURES = resolve(ROOT, 'bench/fuzz-failures')

function saveFailure(o: Options, index: number, kind: string, detail: unknown): void {
  const seeds = corpusSeeds(o.corpus)
  const input = inputAt(seeds, o.seed, index)
  mkdirSync(FAILURES, { recursive: true })
  const base = join(FAILURES, `${o.seed}-${index}`)
  writeFileSync(`${base}.bin`, input.bytes)
  writeFileSync(
    `${base}.json`,
    JSON.stringify(
      { seed: o.seed, index, kind, seedFile: input.seedName, plan: input.plan, detail },
      null,
      2,
    ),
  )
}

/** Inputs [0, o.inputs) in child processes, restarting after a hang. */
async function mutationPhase(o: Options, tally: Tally): Promise<void> {
  let next = 0
  const started = Date.now()
  let lastReport = started
  while (next < o.inputs) {
    next = await new Promise<number>((done) => {
      const child: ChildProcess = fork(
        resolve(ROOT, 'bin/run-ts.mjs'),
        [resolve(ROOT, 'scripts/fuzz/worker.ts')],
        {
          stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
        },
      )
      let current = next
      let lastMessage = Date.now()
      let finished = false
      const finish = (resume: number) => {
        if (finished) return
        finished = true
        clearInterval(watchdog)
        done(resume)
      }
      const watchdog = setInterval(() => {
        if (Date.now() - lastMessage < o.hangMs) return
        child.kill('SIGKILL')
        tally.hang(current, `no answer for ${o.hangMs} ms`)
        saveFailure(o, current, 'hang', { ms: o.hangMs })
        console.error(`fuzz: input ${current} hung (> ${o.hangMs} ms); saved; going on`)
        finish(current + 1)
      }, 1000)
      child.on(
        'message',
        (m: { type: string; index?: number; outcome?: Outcome; seedName?: string }) => {
          lastMessage = Date.now()
          if (m.type === 'start' && m.index !== undefined) current = m.index
          else if (m.type === 'outcome' && m.index !== undefined && m.outcome) {
            tally.add(m.index, m.outcome)
            const bad =
              m.outcome.crash ??
              m.outcome.violations[0] ??
              (m.outcome.lostLines ? 'lost lines' : null) ??
              (m.outcome.lostMessages ? 'round trip' : null)
            if (bad) saveFailure(o, m.index, 'failure', { ...m.outcome, seedFile: m.seedName })
            current = m.index + 1
            if (Date.now() - lastReport > 30_000) {
              lastReport = Date.now()
              const rate = tally.inputs / ((Date.now() - started) / 1000)
              console.warn(
                `fuzz: ${tally.inputs.toLocaleString('en')} / ${o.inputs.toLocaleString('en')} inputs (${rate.toFixed(0)}/s), ` +
                  `${tally.crashes} crashes, ${tally.hangs} hangs, ${tally.lostLines} lost lines, ${tally.violations} violations`,
              )
            }
          } else if (m.type === 'done') finish(o.inputs)
        },
      )
      child.on('exit', (code) => {
        if (finished) return
        // A crash of the worker process itself (out of memory, a native abort): count, go on.
        tally.hang(current, `worker exited with code ${code}`)
        saveFailure(o, current, 'worker exit', { code })
        finish(current + 1)
      })
      child.send({
        runSeed: o.seed,
        from: next,
        to: o.inputs,
        corpus: o.corpus,
        exactEvery: o.exactEvery,
      })
    })
  }
}

interface CorpusCheck {
  files: number
  runs: number
  changingRuns: number
  furtherChanges: number
  failures: string[]
}

/** Every corpus file × every preset (as shipped and scaled to 40 %), exact counts: write, re-import, compact again. */
async function corpusFixedPoint(o: Options): Promise<CorpusCheck> {
  const counter: TextCounter = await loadCounter('o200k_base')
  const deps = { counter, summarizer: createDigestSummarizer() }
  const check: CorpusCheck = { files: 0, runs: 0, changingRuns: 0, furtherChanges: 0, failures: [] }
  for (const seed of corpusSeeds(o.corpus)) {
    const imported = importTranscriptBytes(readFileSync(join(o.corpus, seed.name)), {
      fileName: seed.name,
    })
    if (!imported.result.ok) continue
    check.files++
    const conversation = imported.result.conversation
    const prepared = prepare(conversation, counter)
    const total =
      prepared.staticTokens +
      prepared.systemTokens +
      prepared.messageTokens.reduce((a, b) => a + b, 0)
    for (const id of PRESET_IDS) {
      const shipped = toEngineConfig(presetConfig(id))
      for (const config of [shipped, scaleTo(shipped, total, 0.4)]) {
        check.runs++
        const first = await compact(prepared, config, deps, STRATEGY_REGISTRY)
        if (first.changes === 0) continue
        check.changingRuns++
        const again = importTranscript(exportCompactedTranscript(first).text, {
          format: conversation.meta.format,
        })
        if (!again.result.ok) {
          check.failures.push(`${seed.name} ${id}: re-import failed: ${again.result.error.message}`)
          continue
        }
        const second = await compact(
          prepare(again.result.conversation, counter),
          config,
          deps,
          STRATEGY_REGISTRY,
        )
        if (second.changes > 0) {
          check.furtherChanges += second.changes
          check.failures.push(`${seed.name} ${id}: ${second.changes} further changes`)
        }
      }
    }
  }
  return check
}

const n = (x: number) => x.toLocaleString('en')

async function report(
  o: Options,
  tally: Tally,
  corpus: CorpusCheck | null,
  seconds: number,
): Promise<void> {
  const lines = [
    '# Fuzz figures',
    '',
    `Written by \`npm run fuzz\` (scripts/fuzz/run.ts) on ${new Date().toISOString().slice(0, 10)}: seed ${o.seed}, ` +
      `${n(o.inputs)} mutated inputs from ${o.corpus.replace(resolve(ROOT, '..'), '..')}, ${Math.round(seconds / 60)} min. ` +
      'Reproduce one input with `npm run fuzz -- --seed SEED --only INDEX`.',
    '',
    '| figure | count | must be |',
    '| --- | ---: | ---: |',
    `| inputs | ${n(tally.inputs)} | |`,
    `| imported (the rest refused with a positioned error) | ${n(tally.imported)} | |`,
    `| crashes (an exception escaped, or an importer's catch-all fired) | ${n(tally.crashes)} | 0 |`,
    `| hangs (> ${o.hangMs / 1000} s, or the worker died) | ${n(tally.hangs)} | 0 |`,
    `| lost complete lines (JSON Lines: neither kept nor warned about) | ${n(tally.lostLines)} | 0 |`,
    `| inputs with an invariant violation, a failed-open strategy or a written output that compacts further | ${n(tally.violations)} | 0 |`,
    `| runs that compacted something (so the written-output check ran) | ${n(tally.changing)} | |`,
    `| of those, compacting the written output changed more | ${n(tally.furtherChanges)} | 0 |`,
    `| plain round trip (write, read back, every format): parts not given back | ${n(tally.lostMessages)} | 0 |`,
    `| lines kept but written back normalised (e.g. \`"text": null\` as \`""\`) | ${n(tally.rewrittenLines)} | (info) |`,
    `| slowest input | ${(tally.maxMs / 1000).toFixed(1)} s | |`,
    '',
    '## Inputs per detected format',
    '',
    '| format | inputs |',
    '| --- | ---: |',
    ...[...tally.byFormat].sort((a, b) => b[1] - a[1]).map(([f, c]) => `| ${f} | ${n(c)} |`),
    '',
    '## Configs',
    '',
    '| config | inputs |',
    '| --- | ---: |',
    ...[...tally.byConfig].sort((a, b) => b[1] - a[1]).map(([f, c]) => `| ${f} | ${n(c)} |`),
    '',
  ]
  if (corpus) {
    lines.push(
      '## Double compaction over the corpus × presets',
      '',
      'Every corpus file × every preset, as shipped and scaled to 40 % of the file, exact o200k counts: compact, ' +
        'write in the source format, re-import, compact again.',
      '',
      '| figure | count | must be |',
      '| --- | ---: | ---: |',
      `| files | ${n(corpus.files)} | |`,
      `| runs | ${n(corpus.runs)} | |`,
      `| runs that changed something | ${n(corpus.changingRuns)} | |`,
      `| further changes when compacting the written output | ${n(corpus.furtherChanges)} | 0 |`,
      '',
    )
    pushAll(
      lines,
      corpus.failures.slice(0, 20).map((f) => `- ${f}`),
    )
  }
  if (tally.examples.length) {
    lines.push('## First failures', '')
    pushAll(
      lines,
      tally.examples.slice(0, 20).map((e) => `- input ${e.index}: ${e.kind}: ${e.detail}`),
    )
  }
  const text = lines.join('\n')
  const config = await resolveConfig(o.out)
  writeFileSync(o.out, await prettierFormat(text, { ...config, filepath: o.out }))
  const json = join(dirname(o.out), 'fuzz-results.json')
  const { examples, byFormat, byConfig, ...figures } = tally
  writeFileSync(
    json,
    JSON.stringify(
      {
        seed: o.seed,
        inputs: o.inputs,
        seconds: Math.round(seconds),
        figures,
        byFormat: Object.fromEntries(byFormat),
        byConfig: Object.fromEntries(byConfig),
        corpus,
        examples,
      },
      null,
      2,
    ) + '\n',
  )
  console.warn(`fuzz: wrote ${o.out} and ${json}`)
}

async function main(): Promise<void> {
  const o = options(process.argv.slice(2))
  if (!existsSync(o.corpus)) {
    console.error(
      `fuzz: no corpus at ${o.corpus} (the long run mutates real transcripts); --corpus DIR`,
    )
    process.exit(2)
  }
  if (o.only !== null) {
    const input = inputAt(corpusSeeds(o.corpus), o.seed, o.only)
    const outcome = await checkInput(input.bytes, input.text, input.rng, o.only)
    console.log(JSON.stringify({ seedFile: input.seedName, plan: input.plan, outcome }, null, 2))
    return
  }
  console.warn(`fuzz: seed ${o.seed}, ${n(o.inputs)} inputs from ${o.corpus}`)
  const started = Date.now()
  const tally = new Tally()
  await mutationPhase(o, tally)
  const corpus = o.skipCorpusCheck ? null : await corpusFixedPoint(o)
  const seconds = (Date.now() - started) / 1000
  await report(o, tally, corpus, seconds)
  const failed =
    tally.crashes + tally.hangs + tally.lostLines + tally.violations + (corpus?.furtherChanges ?? 0)
  console.warn(
    `fuzz: ${n(tally.inputs)} inputs, ${tally.crashes} crashes, ${tally.hangs} hangs, ${tally.lostLines} lost lines, ` +
      `${tally.violations} violations, ${tally.lostMessages} round-trip losses; corpus × presets: ${corpus ? `${corpus.furtherChanges} further changes in ${corpus.changingRuns} changing runs` : 'skipped'}`,
  )
  process.exitCode = failed > 0 ? 1 : 0
}

await main()
