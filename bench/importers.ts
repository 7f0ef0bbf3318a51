import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { importTranscript } from '../src/formats/index.ts'
import { mbps, once, round } from './timing.ts'
import { maxOf, minOf } from '../src/engine/arrays.ts'

export interface ImportResult {
  readonly source: string
  readonly format: string
  readonly bytes: number
  readonly messages: number
  readonly importMBps: number
  readonly importRangeMBps: readonly [number, number]
  /** Plain JSON.parse of the same bytes (per line for JSONL); null for non-JSON formats. */
  readonly jsonParseMBps: number | null
  /** import speed / JSON.parse speed (target ≥ 0.6). */
  readonly fractionOfJsonParse: number | null
}

function jsonBaseline(text: string): (() => unknown) | null {
  const t = text.trimStart()
  if (!t.startsWith('{') && !t.startsWith('[')) return null
  try {
    JSON.parse(text)
    return () => JSON.parse(text)
  } catch {
    return () => {
      for (const line of text.split('\n')) if (line.trim()) JSON.parse(line)
    }
  }
}

export function benchImport(source: string, text: string, runs = 5): ImportResult {
  const bytes = Buffer.byteLength(text)
  let messages = 0
  let format = '?'
  const importOnce = () => {
    const outcome = importTranscript(text, { fileName: source })
    format = outcome.detection?.format ?? 'unrecognised'
    messages = outcome.result.ok ? outcome.result.conversation.messages.length : 0
  }
  const baseline = jsonBaseline(text)
  // Alternate the two so GC pressure and CPU frequency affect both alike; medians of each.
  importOnce()
  baseline?.()
  const imp: number[] = []
  const parse: number[] = []
  for (let i = 0; i < runs; i++) {
    if (baseline) parse.push(once(baseline))
    imp.push(once(importOnce))
  }
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number
  const importMBps = mbps(bytes, med(imp))
  const jsonParseMBps = baseline ? mbps(bytes, med(parse)) : null
  const result: ImportResult = {
    source,
    format,
    bytes,
    messages,
    importMBps: round(importMBps),
    importRangeMBps: [round(mbps(bytes, maxOf(imp))), round(mbps(bytes, minOf(imp)))],
    jsonParseMBps: jsonParseMBps === null ? null : round(jsonParseMBps),
    fractionOfJsonParse: jsonParseMBps === null ? null : round(importMBps / jsonParseMBps),
  }
  console.log(
    `  import ${source}: ${result.importMBps} MB/s vs JSON.parse ${result.jsonParseMBps ?? 'n/a'} → ${result.fractionOfJsonParse ?? 'n/a'}`,
  )
  return result
}

/** The largest corpus file of each format folder (skipped when the corpus is absent). */
export function largestCorpusFiles(): { folder: string; path: string }[] {
  const corpus = resolve(import.meta.dirname, '../../shared/corpus')
  if (!existsSync(corpus)) return []
  const out: { folder: string; path: string }[] = []
  for (const folder of readdirSync(corpus).sort()) {
    const dir = join(corpus, folder)
    if (!statSync(dir).isDirectory()) continue
    const files = readdirSync(dir)
      .map((f) => join(dir, f))
      .filter((p) => !p.endsWith('.session.json'))
      .sort((a, b) => statSync(b).size - statSync(a).size)
    if (files[0]) out.push({ folder, path: files[0] })
  }
  return out
}

export function readText(path: string): string {
  return readFileSync(path, 'utf8')
}
