/**
 * Resource identity of a tool call (LIP `ResourceIdentityExtractor`), faithful and fixed.
 *
 * Faithful (LIP as written): first match wins among path → directory → command → query
 * parameters; offset/limit are secondary keys for `file_read` tools only; paths lose backslashes
 * and trailing slashes and only the drive letter is lower-cased; a command is keyed by the
 * lower-cased basename of its first token (`git status` ≡ `git log`); a search with a `path` is
 * keyed by the path alone (`grep foo src` ≡ `grep bar src`).
 *
 * Fixed: paths also resolve `.`/`..`, relative paths are resolved under the conversation cwd
 * when known, Windows-looking paths are case-folded; `view_file` reads are ranged too; a
 * command is keyed by its whole normalised command line (+ working directory); a search by its
 * pattern + path + remaining options.
 */
import type { ToolCategory } from './categories.ts'
import { parseJson } from '../../json.ts'
import { normalizePathFixed } from './paths.ts'
import {
  commandText,
  FULL,
  parseShellCommand,
  rangeLabel,
  type LineRange,
  type ShellResource,
} from './shell.ts'
import { writtenPaths } from './writes.ts'
import { withFields } from '../../objects.ts'

export { normalizePathFixed }

export interface ResourceIdentity {
  /** Lower-cased tool name: LIP compares tool names case-insensitively. */
  readonly tool: string
  readonly primary: string
  readonly secondary: readonly string[]
  /** Equality key (tool + primary + secondary). */
  readonly key: string
  /** Ranged file reads (fixed): key of the full read of the same file that supersedes them. */
  readonly fullReadKey?: string
  /** This is a full (unranged) read of a file (fixed): the key ranged reads point to. */
  readonly isFullRead?: boolean
  /** Fixed: files whose content this result shows (a write to one of them makes it stale). */
  readonly reads?: readonly string[]
  /** Fixed: the lines of `reads[0]` it shows, when known (a later covering read supersedes it). */
  readonly lines?: LineRange
  /** Fixed: files this call writes. */
  readonly writes?: readonly string[]
  /** Fixed: the category a shell command is read as (`cat x` is a `file_read`, not a command). */
  readonly readAs?: ToolCategory
  /** Fixed: a Codex `write_stdin` to this session, keyed to the command that opened it. */
  readonly continues?: { readonly session: number }
}

type Args = Readonly<Record<string, unknown>>

const PATH_PARAMS = [
  'file_path',
  'path',
  'AbsolutePath',
  'filepath',
  'File',
  'TargetFile',
  'target_file',
  'filename',
]
const FIXED_PATH_PARAMS = [...PATH_PARAMS, 'filePath', 'absolute_path', 'notebook_path', 'file']
const DIRECTORY_PARAMS = ['DirectoryPath', 'SearchDirectory', 'directory', 'dir', 'Cwd']
const COMMAND_PARAMS = ['command', 'CommandLine', 'cmd', 'Input']
const QUERY_PARAMS = ['Query', 'query', 'pattern', 'SearchPath']
const OFFSET_PARAMS = ['offset', 'start_line', 'StartLine', 'line_offset', 'from_line']
const LIMIT_PARAMS = ['limit', 'max_lines', 'MaxLines', 'end_line', 'EndLine', 'num_lines', 'count']
const FIXED_OFFSET_PARAMS = [...OFFSET_PARAMS, 'startLine']
const FIXED_LIMIT_PARAMS = [...LIMIT_PARAMS, 'endLine']
const WORKDIR_PARAMS = ['workdir', 'cwd', 'Cwd', 'working_directory', 'directory']
/** Arguments that never change what a search returns. */
const SEARCH_IGNORED = new Set(['description', 'timeout'])

const makeKey = (tool: string, primary: string, secondary: readonly string[]): string =>
  JSON.stringify([tool, primary, ...secondary])

function identity(
  tool: string,
  primary: string,
  secondary: readonly string[] = [],
): ResourceIdentity {
  const t = tool.toLowerCase()
  return { tool: t, primary, secondary, key: makeKey(t, primary, secondary) }
}

/** LIP `_extract_param`: the first listed name holding a non-blank string, stripped. */
function strParam(args: Args, names: readonly string[]): string | null {
  for (const n of names) {
    const v = args[n]
    if (typeof v === 'string' && v.trim()) return v.trim()
  }
  return null
}

/** LIP `_extract_numeric_param`: an integer, or a string `int()` accepts. */
function intParam(args: Args, names: readonly string[]): number | null {
  for (const n of names) {
    const v = args[n]
    if (typeof v === 'number' && Number.isInteger(v)) return v
    if (typeof v === 'string' && /^\s*[+-]?\d+\s*$/.test(v)) return Number.parseInt(v.trim(), 10)
  }
  return null
}

function rangeKeys(args: Args, fixed: boolean): string[] {
  const out: string[] = []
  const offset = intParam(args, fixed ? FIXED_OFFSET_PARAMS : OFFSET_PARAMS)
  if (offset !== null) out.push(`offset:${offset}`)
  const limit = intParam(args, fixed ? FIXED_LIMIT_PARAMS : LIMIT_PARAMS)
  if (limit !== null) out.push(`limit:${limit}`)
  return out
}

/** Parse arguments the way LIP does (`arguments or "{}"`, then `json.loads`). */
export function parseArgs(argsRaw: string): { dict: Args } | { raw: string } | null {
  const text = argsRaw === '' ? '{}' : argsRaw
  try {
    const parsed: unknown = parseJson(text)
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed))
      return { dict: parsed as Args }
    return { raw: text.trim() }
  } catch {
    return text.trim() ? { raw: text.trim() } : null
  }
}

/** LIP `_normalize_path`: backslashes → `/`, trailing `/` stripped, drive letter lower-cased. */
export function normalizePathFaithful(path: string): string {
  const p = path.replace(/\\/g, '/').replace(/\/+$/, '')
  return p.length >= 2 && p[1] === ':' ? (p[0] as string).toLowerCase() + p.slice(1) : p
}

/** LIP `_create_command_signature`: lower-cased basename of the first token, script suffix dropped. */
export function commandSignature(command: string): string {
  const first = command.trim().split(/\s+/)[0]
  if (!first) return command
  const base = first.split('/').pop()?.split('\\').pop() ?? first
  return base.replace(/\.(exe|sh|bat|cmd|ps1)$/i, '').toLowerCase()
}

/** LIP `ResourceIdentityExtractor.extract`, as written. */
export function extractFaithful(
  tool: string,
  category: ToolCategory,
  argsRaw: string,
): ResourceIdentity | null {
  const parsed = parseArgs(argsRaw)
  if (!parsed) return null
  if ('raw' in parsed) return identity(tool, parsed.raw)
  const args = parsed.dict
  const path = strParam(args, PATH_PARAMS)
  if (path)
    return identity(
      tool,
      normalizePathFaithful(path),
      category === 'file_read' ? rangeKeys(args, false) : [],
    )
  const dir = strParam(args, DIRECTORY_PARAMS)
  if (dir) {
    const pattern = strParam(args, ['Pattern', 'pattern'])
    return identity(tool, normalizePathFaithful(dir), pattern ? [pattern] : [])
  }
  const command = strParam(args, COMMAND_PARAMS)
  if (command) return identity(tool, commandSignature(command))
  const query = strParam(args, QUERY_PARAMS)
  if (query) {
    const where = strParam(args, ['SearchPath', 'path', 'directory'])
    return identity(tool, query, where ? [where] : [])
  }
  return null
}

/** A command line as one string: arrays (Codex `["bash","-lc","git status"]`) joined. */
function commandLine(args: Args): string | null {
  for (const n of COMMAND_PARAMS) {
    const v = args[n]
    if (typeof v === 'string' && v.trim()) return v.trim().replace(/\s+/g, ' ')
    if (Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'string'))
      return (v as string[]).join(' ').trim().replace(/\s+/g, ' ')
  }
  return null
}

/** Canonical text of an argument value for a secondary key. */
const canon = (v: unknown): string => (typeof v === 'string' ? v : (JSON.stringify(v) ?? String(v)))

/**
 * Fixed identity (see the module comment), plus what shell commands read and what edits write.
 */
export function extractFixed(
  tool: string,
  category: ToolCategory,
  argsRaw: string,
  cwd?: string,
): ResourceIdentity | null {
  const parsed = parseArgs(argsRaw)
  const base = extractFixedBase(tool, category, argsRaw, cwd)
  if (!parsed) return base
  const writes = writtenPaths(tool, 'raw' in parsed ? parsed.raw : parsed.dict, cwd)
  if (writes.length > 0) return withFields(base ?? identity(tool, writes.join(' ')), { writes })
  if ('raw' in parsed || !base) return base
  if (category === 'command_execution') {
    const shell = shellIdentity(tool, parsed.dict, cwd)
    if (shell) return shell
  }
  if ((category === 'file_read' || category === 'view_file') && base.isFullRead)
    return withFields(base, { reads: [base.primary], lines: FULL })
  if ((category === 'file_read' || category === 'view_file') && base.fullReadKey)
    return withFields(base, { reads: [base.primary] })
  return base
}

/** A shell command that only reads, keyed by what it reads; null when not understood. */
function shellIdentity(tool: string, args: Args, cwd?: string): ResourceIdentity | null {
  let line: string | null = null
  for (const n of COMMAND_PARAMS) {
    line = commandText(args[n])
    if (line) break
  }
  if (!line) return null
  const wd = strParam(args, WORKDIR_PARAMS)
  const dir = wd ? normalizePathFixed(wd, cwd) : cwd
  const resources = parseShellCommand(line, dir)
  if (!resources) return null
  const t = tool.toLowerCase()
  const described = resources.map(describeShell)
  const reads = resources.flatMap((r) => (r.kind === 'file' ? [r.path] : []))
  const only = resources.length === 1 ? resources[0] : undefined
  const primary = only ? (described[0] as Described).primary : described.map(labelOf).join(' ; ')
  const secondary = only ? (described[0] as Described).secondary : []
  const readAs: ToolCategory = only
    ? only.kind === 'search'
      ? 'search'
      : only.kind === 'listing'
        ? 'list_dir'
        : 'file_read'
    : 'file_read'
  return {
    tool: t,
    primary,
    secondary,
    // Keyed by what is read, not by the command line: `cat x` ≡ `less x`, and the kinds are
    // tagged so a search pattern never meets a path of the same spelling.
    key: JSON.stringify([t, 'shell', ...described.map((d) => [d.kind, d.primary, ...d.secondary])]),
    readAs,
    ...(reads.length > 0 ? { reads } : {}),
    ...(only?.kind === 'file' ? { lines: only.range } : {}),
  }
}

interface Described {
  readonly kind: ShellResource['kind']
  readonly primary: string
  readonly secondary: readonly string[]
}
const labelOf = (d: Described) =>
  d.secondary.length > 0 ? `${d.primary} (${d.secondary.join(', ')})` : d.primary

function describeShell(r: ShellResource): Described {
  switch (r.kind) {
    case 'file':
      return { kind: r.kind, primary: r.path, secondary: [rangeLabel(r.range)] }
    case 'search':
      return {
        kind: r.kind,
        primary: r.pattern,
        secondary: [`${r.program} in ${r.paths.join(' ')}`, ...r.options],
      }
    case 'listing':
      return { kind: r.kind, primary: r.paths.join(' '), secondary: [r.program, ...r.options] }
    case 'git':
      return {
        kind: r.kind,
        primary: ['git', r.sub, ...r.args].join(' '),
        secondary: r.cwd ? [`cwd:${r.cwd}`] : [],
      }
    default: {
      const never: never = r
      return never
    }
  }
}

function extractFixedBase(
  tool: string,
  category: ToolCategory,
  argsRaw: string,
  cwd?: string,
): ResourceIdentity | null {
  const parsed = parseArgs(argsRaw)
  if (!parsed) return null
  if ('raw' in parsed) return identity(tool, parsed.raw)
  const args = parsed.dict
  const norm = (p: string) => normalizePathFixed(p, cwd)

  if (category === 'search') {
    const pattern = strParam(args, ['pattern', 'Pattern', 'query', 'Query', 'regex'])
    if (pattern) {
      const where = strParam(args, [
        'path',
        'SearchPath',
        'directory',
        'dir',
        'SearchDirectory',
        'dir_path',
      ])
      const used = new Set([
        'pattern',
        'Pattern',
        'query',
        'Query',
        'regex',
        'path',
        'SearchPath',
        'directory',
        'dir',
        'SearchDirectory',
        'dir_path',
      ])
      const rest = Object.keys(args)
        .filter(
          (k) =>
            !used.has(k) && !SEARCH_IGNORED.has(k) && args[k] !== undefined && args[k] !== null,
        )
        .sort()
        .map((k) => `${k}=${canon(args[k])}`)
      return identity(tool, pattern, [...(where ? [`path:${norm(where)}`] : []), ...rest])
    }
  }
  if (category === 'command_execution' || category === 'test_execution') {
    const line = commandLine(args)
    if (line) {
      const wd = strParam(args, WORKDIR_PARAMS)
      return identity(tool, line, wd ? [`cwd:${norm(wd)}`] : [])
    }
  }
  const path = strParam(args, FIXED_PATH_PARAMS)
  if (path) {
    const p = norm(path)
    if (category === 'file_read' || category === 'view_file') {
      const range = rangeKeys(args, true)
      const full = identity(tool, p)
      if (range.length === 0) return withFields(full, { isFullRead: true })
      return withFields(identity(tool, p, range), { fullReadKey: full.key })
    }
    if (category === 'list_dir') {
      const pattern = strParam(args, ['Pattern', 'pattern'])
      return identity(tool, p, pattern ? [`pattern:${pattern}`] : [])
    }
    return identity(tool, p)
  }
  const dir = strParam(args, DIRECTORY_PARAMS)
  if (dir) {
    const pattern = strParam(args, ['Pattern', 'pattern'])
    return identity(tool, norm(dir), pattern ? [`pattern:${pattern}`] : [])
  }
  const line = commandLine(args)
  if (line) return identity(tool, line)
  const query = strParam(args, QUERY_PARAMS)
  if (query) {
    const where = strParam(args, ['SearchPath', 'path', 'directory'])
    return identity(tool, query, where ? [`path:${norm(where)}`] : [])
  }
  return null
}

/** How a resource is shown: faithful = the primary key (LIP); fixed = with its secondary keys. */
export function resourceLabel(id: ResourceIdentity, faithful: boolean): string {
  if (faithful || id.secondary.length === 0) return id.primary
  // Made once per identity (identities are kept per call part): an edit of the step's own
  // numbers words thousands of results again, and joining their keys each time showed.
  let label = labels.get(id)
  if (label === undefined) {
    label = `${id.primary} (${id.secondary.join(', ')})`
    labels.set(id, label)
  }
  return label
}
const labels = new WeakMap<ResourceIdentity, string>()
