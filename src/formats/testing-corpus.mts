// Node-only test helper: `.mts` keeps it out of tsconfig.engine.json (no Node types there); it is
// type-checked through the tests that import it (tsconfig.node.json).
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect } from 'vitest'
import type { Conversation, FormatId } from '../engine/model.ts'
import { sniff } from './sniff.ts'
import { digest } from './testing.ts'
import type { ImportOptions, Importer, ParseWarning } from './types.ts'

/**
 * Test helpers for the shared corpus of real transcripts (`../shared/corpus/<format id>/`, next to
 * the checkout). The corpus is optional: when a folder is absent the importer's corpus tests are
 * skipped, and the test file prints `skipMessage` to say why.
 */

/**
 * Corpus files that hold no conversation (metadata only), as `folder/name`: importing them must
 * fail with a clear message; every other corpus file must import. Listed so that a corpus test
 * never skips a file silently because its import failed.
 */
export const NOT_CONVERSATIONS: ReadonlySet<string> = new Set([
  'opencode/opencode-export-html__t8v6Igr8.session.json', // opencode Session.Info: no messages
])

/** The shared corpus root: `<checkout>/../shared/corpus`. */
export const CORPUS_ROOT = fileURLToPath(new URL('../../../shared/corpus', import.meta.url))

/** One corpus file; `text` is read on first use (the whole corpus is several megabytes). */
export interface CorpusFile {
  readonly name: string
  readonly path: string
  readonly text: string
}

export interface Corpus {
  readonly dir: string
  /** Whether the format's corpus folder exists. */
  readonly present: boolean
  /** What to print when it does not. */
  readonly skipMessage: string
  /** The folder's files, sorted by name; empty when the folder is absent. */
  readonly files: readonly CorpusFile[]
}

/**
 * The corpus files of one format. `filter` keeps only matching names (e.g. `.jsonl` sessions);
 * `why` explains an absent folder (default: "not found").
 */
export function corpusFiles(
  formatId: FormatId,
  options: { filter?: (name: string) => boolean; why?: string } = {},
): Corpus {
  const dir = join(CORPUS_ROOT, formatId)
  const present = existsSync(dir)
  const names = present ? readdirSync(dir).sort() : []
  const files = names.filter(options.filter ?? (() => true)).map((name) => lazyFile(dir, name))
  return {
    dir,
    present,
    skipMessage: `${formatId} corpus: ${dir} ${options.why ?? 'not found'}, corpus tests skipped`,
    files,
  }
}

function lazyFile(dir: string, name: string): CorpusFile {
  const path = join(dir, name)
  let text: string | undefined
  return {
    name,
    path,
    get text() {
      text ??= readFileSync(path, 'utf8')
      return text
    },
  }
}

/**
 * A real file through the importer as the app would take it: detection must name the importer's
 * format with confidence ≥ 0.6, and parsing must succeed.
 */
export function importCorpusFile(
  importer: Importer,
  file: CorpusFile,
  options?: ImportOptions,
): { conversation: Conversation; warnings: readonly ParseWarning[] } {
  const input = sniff(file.text)
  const detection = importer.detect(input, options)
  expect(detection?.format).toBe(importer.id)
  expect(detection?.confidence).toBeGreaterThanOrEqual(0.6)
  const result = importer.parse(input, options)
  expect(result.ok, result.ok ? undefined : JSON.stringify(result.error)).toBe(true)
  if (!result.ok) throw new Error(`${file.name}: ${result.error.message}`)
  return { conversation: result.conversation, warnings: result.warnings }
}

/**
 * serialize → import must keep the conversation (as far as `digest` sees). Returns the re-imported
 * conversation for further checks.
 */
export function roundTrip(importer: Importer, conversation: Conversation): Conversation {
  const again = importer.parse(sniff(importer.serialize(conversation)))
  expect(again.ok, again.ok ? undefined : `re-import failed: ${JSON.stringify(again.error)}`).toBe(
    true,
  )
  if (!again.ok) throw new Error(`re-import failed: ${again.error.message}`)
  expect(digest(again.conversation)).toEqual(digest(conversation))
  return again.conversation
}
