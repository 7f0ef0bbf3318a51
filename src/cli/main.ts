import { UsageError } from './args.ts'
import { COMPACT_USAGE, compactCommand } from './compact.ts'
import { EVALUATE_USAGE, evaluateCommand } from './evaluate.ts'
import { EXPORT_CONFIG_USAGE, exportConfigCommand } from './export-config.ts'
import { INSPECT_USAGE, inspectCommand } from './inspect.ts'
import { processIo, type Io } from './io.ts'
import { MERGE_USAGE, mergeCommand } from './merge.ts'

const USAGE = `compaction-lab — see and tune LLM context compaction

commands:
  ${INSPECT_USAGE.replace('usage: compaction-lab ', '')}
  ${COMPACT_USAGE.replace('usage: compaction-lab ', '')}
  ${EXPORT_CONFIG_USAGE.replace('usage: compaction-lab ', '')}
  ${EVALUATE_USAGE.replace('usage: compaction-lab ', '')}
  ${MERGE_USAGE.replace('usage: compaction-lab ', '')}

presets: adachsoft, falai, lip, opencode, maf-context-window, anthropic-clear-tool-uses, recommended

exit codes: 0 ok, 1 invalid input, 2 usage error
`

export type Command = (argv: readonly string[], io: Io) => Promise<number>

const COMMANDS: Readonly<Record<string, Command>> = {
  inspect: inspectCommand,
  compact: compactCommand,
  'export-config': exportConfigCommand,
  evaluate: evaluateCommand,
  merge: mergeCommand,
}

/**
 * CLI entry point; returns the exit code (SPEC §8). Never throws: an unexpected error is one line
 * on stderr and exit 1. `commands` is injectable for tests.
 */
export async function main(
  argv: readonly string[],
  io: Io = processIo,
  commands: Readonly<Record<string, Command>> = COMMANDS,
): Promise<number> {
  const [command, ...rest] = argv
  try {
    const run =
      command !== undefined && Object.hasOwn(commands, command) ? commands[command] : undefined
    if (run) return await run(rest, io)
    switch (command) {
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
    // A bug of ours, not the user's input: one clear line, the stack only on request.
    const message = error instanceof Error ? error.message : String(error)
    io.stderr(
      `compaction-lab ${command ?? ''}: internal error: ${message}\n` +
        (process.env.COMPACTION_LAB_DEBUG && error instanceof Error && error.stack
          ? `${error.stack}\n`
          : '(set COMPACTION_LAB_DEBUG=1 to see the stack)\n'),
    )
    return 1
  }
}
