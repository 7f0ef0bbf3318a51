import { readFile } from 'node:fs/promises'
import { EXPORT_TARGETS, isTargetId } from '../export/targets/index.ts'
import { exportConfigFile } from '../session/batch.ts'
import { flagString, parseArgs, UsageError } from './args.ts'
import type { Io } from './io.ts'

/** Our own versioned format, then every system a user runs (SPEC §8). */
const TARGETS = ['compaction-lab', ...EXPORT_TARGETS.map((t) => t.id)] as const

export const EXPORT_CONFIG_USAGE = `usage: compaction-lab export-config CONFIG.json [--target ${TARGETS.join('|')}]
  Validates the config (migrating older versions) and prints it on stdout, in our versioned
  format (--target compaction-lab, the default) or as the named system's own configuration.
  For a target system, stderr starts with "does: <what that system will do with it>"; whatever
  the target cannot express follows as "path: what is lost — what happens instead", then
  notes (headers to send, runtime differences); the exit code stays 0.`

/**
 * `export-config CONFIG.json [--target ID]`: the validated config in our format or translated for
 * one target; returns the exit code (0 ok — lossy warnings included —, 1 invalid config).
 */
export async function exportConfigCommand(argv: readonly string[], io: Io): Promise<number> {
  const args = parseArgs(argv, { target: 'value' })
  const [file, ...extra] = args.positional
  if (!file || extra.length > 0) throw new UsageError(EXPORT_CONFIG_USAGE)
  const target = flagString(args, 'target') ?? 'compaction-lab'
  if (target !== 'compaction-lab' && !isTargetId(target)) {
    throw new UsageError(`unknown --target ${target}; one of: ${TARGETS.join(', ')}`)
  }
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    io.stderr(`${file}: cannot read: ${error instanceof Error ? error.message : String(error)}\n`)
    return 1
  }
  const exported = exportConfigFile(text, undefined, target)
  if (exported.kind === 'invalid') {
    io.stderr(
      `${file}: invalid config:\n${exported.issues.map((i) => `  ${i.path}: ${i.message}`).join('\n')}\n`,
    )
    return 1
  }
  const out = exported.file
  if (target === 'compaction-lab') {
    io.stdout(out.text)
    return 0
  }
  io.stdout(out.text.endsWith('\n') ? out.text : `${out.text}\n`)
  // The summary, lossy warnings and notes go to stderr so stdout stays a file the target can
  // read as is.
  io.stderr(`does: ${out.summary ?? ''}\n`)
  for (const w of out.warnings) io.stderr(`${w.path}: ${w.message} — ${w.instead}\n`)
  for (const note of out.notes) io.stderr(`note: ${note}\n`)
  return 0
}
