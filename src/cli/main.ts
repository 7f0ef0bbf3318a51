import { UsageError } from './args.ts'
import { COMPACT_USAGE, compactCommand } from './compact.ts'
import { EXPORT_CONFIG_USAGE, exportConfigCommand } from './export-config.ts'
import { INSPECT_USAGE, inspectCommand } from './inspect.ts'
import { processIo, type Io } from './io.ts'

const USAGE = `compaction-lab — see and tune LLM context compaction

commands:
  ${INSPECT_USAGE.replace('usage: compaction-lab ', '')}
  ${COMPACT_USAGE.replace('usage: compaction-lab ', '')}
  ${EXPORT_CONFIG_USAGE.replace('usage: compaction-lab ', '')}

presets: adachsoft, falai, lip, opencode, maf-context-window, anthropic-clear-tool-uses, recommended

exit codes: 0 ok, 1 invalid input, 2 usage error
`

/** CLI entry point; returns the exit code (SPEC §8). */
export async function main(argv: readonly string[], io: Io = processIo): Promise<number> {
  const [command, ...rest] = argv
  try {
    switch (command) {
      case 'inspect':
        return await inspectCommand(rest, io)
      case 'compact':
        return await compactCommand(rest, io)
      case 'export-config':
        return await exportConfigCommand(rest, io)
      case undefined:
      case '--help':
      case '-h':
      case 'help':
        io.stdout(USAGE)
        return command === undefined ? 2 : 0
      default:
        throw new UsageError(`unknown command ${command}\n\n${USAGE}`)
    }
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`${error.message}\n`)
      return 2
    }
    throw error
  }
}
