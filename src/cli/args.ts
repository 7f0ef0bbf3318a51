/** A tiny, strict argument parser: unknown flags are usage errors (exit 2), never ignored. */
export interface ParsedArgs {
  readonly positional: readonly string[]
  readonly flags: ReadonlyMap<string, string | true>
}

export class UsageError extends Error {}

/**
 * @param spec flag name → whether it takes a value (`--format ID`) or is a switch (`--json`).
 */
export function parseArgs(
  argv: readonly string[],
  spec: Readonly<Record<string, 'value' | 'switch'>>,
): ParsedArgs {
  const positional: string[] = []
  const flags = new Map<string, string | true>()
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string
    if (!arg.startsWith('--')) {
      positional.push(arg)
      continue
    }
    const eq = arg.indexOf('=')
    const name = arg.slice(2, eq === -1 ? undefined : eq)
    const kind = spec[name]
    if (!kind) throw new UsageError(`unknown option --${name}`)
    if (kind === 'switch') {
      if (eq !== -1) throw new UsageError(`--${name} takes no value`)
      flags.set(name, true)
      continue
    }
    const value = eq !== -1 ? arg.slice(eq + 1) : argv[++i]
    if (value === undefined || value === '') throw new UsageError(`--${name} needs a value`)
    flags.set(name, value)
  }
  return { positional, flags }
}

export function flagString(args: ParsedArgs, name: string): string | undefined {
  const v = args.flags.get(name)
  return typeof v === 'string' ? v : undefined
}

/** `--item N`: a 0-based item index of a multi-item file, or undefined when not given. */
export function itemFlag(args: ParsedArgs): number | undefined {
  const v = flagString(args, 'item')
  if (v === undefined) return undefined
  if (!/^\d+$/.test(v)) throw new UsageError(`--item takes a 0-based item number, got ${v}`)
  return Number(v)
}
