/**
 * The CLI at scale (issue 14): `compaction-lab compact --preset recommended` on (1) 130 copies of
 * the corpus's Codex rollout one after another (≈135 MB, the input that crashed with a RangeError
 * before), when the corpus is present, and (2) a generated ≈200 MB Claude Code transcript. Wall
 * time of the whole command (import, exact count, compaction, writing the output and the report)
 * and its peak RSS. Targets: completes; 200 MB in ≤ 30 s and ≤ 1.5 GB RSS.
 */
import { spawn } from 'node:child_process'
import { createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { generateLargeClaudeCode } from '../scripts/sample/generate-large.ts'
import { CORPUS } from './accuracy.ts'
import { round } from './timing.ts'

export interface CliScaleRow {
  readonly input: string
  readonly bytes: number
  /** Exit code of the CLI (0: completed). */
  readonly exit: number | null
  readonly seconds: number
  readonly maxRssMb: number | null
  /** Decisions in the written report (null when the run failed). */
  readonly decisions: number | null
  readonly stderrTail: string
}

const ROOT = join(import.meta.dirname, '..')
/** Seconds a CLI run may take before the bench stops it (BENCH_CLI_CAP_S overrides). */
const CAP_S = Number(process.env.BENCH_CLI_CAP_S ?? 360)
const ROLLOUT =
  'codex/localpush__rollout-2026-02-23T12-54-34-019c8a59-e9dd-71f0-9ae3-4079fe9726a9.jsonl'

async function runCli(file: string, label: string, dir: string): Promise<CliScaleRow> {
  const report = join(dir, 'report.json')
  const out = join(dir, 'out.jsonl')
  const t0 = performance.now()
  const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
    const child = spawn(
      process.execPath,
      [
        join(ROOT, 'bin', 'compaction-lab.mjs'),
        'compact',
        file,
        '--preset',
        'recommended',
        '--out',
        out,
        '--report',
        report,
      ],
      {
        cwd: ROOT,
        stdio: ['ignore', 'ignore', 'pipe'],
        env: { ...process.env, NODE_OPTIONS: `--require ${join(ROOT, 'bench', 'max-rss.cjs')}` },
      },
    )
    let err = ''
    child.stderr.on('data', (c: Buffer) => {
      err = (err + c.toString()).slice(-4000)
    })
    // A bench must end: a run past the cap is stopped and reported as such.
    const timer = setTimeout(() => {
      err += `\nstopped after ${CAP_S} s (did not complete)`
      child.kill('SIGKILL')
    }, CAP_S * 1000)
    child.on('exit', (c) => {
      clearTimeout(timer)
      resolve({ code: c, stderr: err })
    })
  })
  const seconds = round((performance.now() - t0) / 1000, 1)
  const rss = /BENCH_MAX_RSS_KB=(\d+)/.exec(stderr)
  let decisions: number | null = null
  if (code === 0 && existsSync(report)) {
    decisions = (JSON.parse(readFileSync(report, 'utf8')) as { decisions: unknown[] }).decisions
      .length
  }
  const row: CliScaleRow = {
    input: label,
    bytes: statSync(file).size,
    exit: code,
    seconds,
    maxRssMb: rss ? round(Number(rss[1]) / 1024, 0) : null,
    decisions,
    stderrTail: stderr
      .replace(/\n?BENCH_MAX_RSS_KB=\d+\n?/, '')
      .trim()
      .slice(-300),
  }
  console.log(
    `  ${label}: exit ${code}, ${seconds} s, peak RSS ${row.maxRssMb} MB, ${decisions ?? '–'} decisions`,
  )
  return row
}

/** Write `text` `times` times to `file` without holding the whole file in memory. */
async function writeRepeated(file: string, text: string, times: number): Promise<void> {
  const stream = createWriteStream(file)
  for (let i = 0; i < times; i++) {
    if (!stream.write(text)) await new Promise<void>((r) => stream.once('drain', () => r()))
  }
  await new Promise<void>((resolve, reject) =>
    stream.end((e?: Error | null) => (e ? reject(e) : resolve())),
  )
}

export async function benchCliScale(quick: boolean): Promise<CliScaleRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'compaction-lab-cli-scale-'))
  const rows: CliScaleRow[] = []
  try {
    const rollout = join(CORPUS, ROLLOUT)
    if (existsSync(rollout)) {
      const times = quick ? 13 : 130
      const file = join(dir, 'rollout-x130.jsonl')
      await writeRepeated(file, readFileSync(rollout, 'utf8'), times)
      rows.push(await runCli(file, `${times}× the corpus Codex rollout`, dir))
      rmSync(file, { force: true })
    } else console.log(`  corpus not found (${CORPUS}): no ${130}× rollout row`)
    const bytes = quick ? 20_000_000 : 200_000_000
    const file = join(dir, 'generated.jsonl')
    await writeRepeated(file, generateLargeClaudeCode(bytes, 29), 1)
    rows.push(await runCli(file, `generated Claude Code ${Math.round(bytes / 1e6)} MB`, dir))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
  return rows
}
