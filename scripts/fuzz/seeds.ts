/** The texts mutations start from: our own fixtures (quick run) or the shared corpus (long run). */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { canonicalSession } from '../../src/export/fixtures.testing.ts'
import { FORMAT_IDS, importerFor } from '../../src/formats/index.ts'
import { Rng } from '../sample/prng.ts'

export interface Seed {
  readonly name: string
  readonly text: string
  /** JSON Lines or aider Markdown: fuzz a window of lines rather than the whole file. */
  readonly lines: boolean
}

/** Every format's writing of our hand-made session, plus a slice of the built-in sample. */
export function ownSeeds(sampleFile: string): Seed[] {
  const seeds: Seed[] = FORMAT_IDS.map((format) => ({
    name: `fixture/${format}`,
    text: importerFor(format).serialize(canonicalSession(format)),
    lines: format === 'claude-code' || format === 'codex' || format === 'aider',
  }))
  seeds.push({
    name: 'sample/coding-session.jsonl',
    text: readFileSync(sampleFile, 'utf8').split('\n').slice(0, 80).join('\n'),
    lines: true,
  })
  return seeds
}

/** Every file of `../shared/corpus/<format>/`. */
export function corpusSeeds(root: string): Seed[] {
  if (!existsSync(root)) return []
  const seeds: Seed[] = []
  for (const folder of readdirSync(root).sort()) {
    const dir = join(root, folder)
    if (!statSync(dir).isDirectory()) continue
    for (const name of readdirSync(dir).sort()) {
      const text = readFileSync(join(dir, name), 'utf8')
      seeds.push({
        name: `${folder}/${name}`,
        text,
        lines: folder === 'claude-code' || folder === 'codex' || folder === 'aider',
      })
    }
  }
  return seeds
}

/**
 * What one input starts from: small files whole; of a long JSON Lines file or aider history a
 * window of lines (a session header first for aider), so that a long run spends its time on many
 * different inputs rather than re-reading the same 4 MB.
 */
export function startText(seed: Seed, rng: Rng): string {
  if (!seed.lines || seed.text.length < 60_000) return seed.text
  const lines = seed.text.split('\n')
  const size = rng.int(20, 400)
  let from = rng.int(0, Math.max(0, lines.length - size))
  if (seed.name.startsWith('aider/')) {
    while (from > 0 && !(lines[from] ?? '').startsWith('# aider chat started at')) from--
  }
  return lines.slice(from, from + size).join('\n')
}

/** The PRNG of input `index` of a run: every input is reproducible on its own. */
export function rngFor(runSeed: number, index: number): Rng {
  return new Rng((Math.imul(runSeed >>> 0, 0x9e3779b1) ^ Math.imul(index + 1, 0x85ebca6b)) >>> 0)
}
