import { readFile } from 'node:fs/promises'
import { loadConfigText, serializeConfig } from '../config/load.ts'
import { STRATEGY_REGISTRY } from '../engine/strategies/index.ts'
import { flagString, parseArgs, UsageError } from './args.ts'
import type { Io } from './io.ts'

/** Targets the CLI contract names (SPEC §8); all but our own format arrive with the export work. */
const TARGETS = [
  'compaction-lab',
  'lip',
  'opencode',
  'anthropic',
  'falai',
  'maf',
  'langchain',
  'adachsoft',
] as const
const AVAILABLE = new Set<string>(['compaction-lab'])

export const EXPORT_CONFIG_USAGE = `usage: compaction-lab export-config CONFIG.json [--target ${TARGETS.join('|')}]
  Validates the config (migrating older versions) and prints it in our versioned format
  (--target compaction-lab, the default). Translations for the systems you run (lip, opencode,
  anthropic, falai, maf, langchain, adachsoft) are not available in this version yet.`

export async function exportConfigCommand(argv: readonly string[], io: Io): Promise<number> {
  const args = parseArgs(argv, { target: 'value' })
  const [file, ...extra] = args.positional
  if (!file || extra.length > 0) throw new UsageError(EXPORT_CONFIG_USAGE)
  const target = flagString(args, 'target') ?? 'compaction-lab'
  if (!(TARGETS as readonly string[]).includes(target)) {
    throw new UsageError(`unknown --target ${target}; one of: ${TARGETS.join(', ')}`)
  }
  if (!AVAILABLE.has(target)) {
    throw new UsageError(
      `--target ${target} is not available in this version yet (only compaction-lab)`,
    )
  }
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    io.stderr(`${file}: cannot read: ${error instanceof Error ? error.message : String(error)}\n`)
    return 1
  }
  const loaded = loadConfigText(text, STRATEGY_REGISTRY)
  if (!loaded.ok) {
    io.stderr(
      `${file}: invalid config:\n${loaded.issues.map((i) => `  ${i.path}: ${i.message}`).join('\n')}\n`,
    )
    return 1
  }
  io.stdout(serializeConfig(loaded.config))
  return 0
}
