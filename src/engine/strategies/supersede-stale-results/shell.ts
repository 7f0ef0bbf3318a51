/**
 * Shell commands as resources: the common *read* forms agents run through a shell tool (Codex
 * `exec_command`/`shell`, Claude Code `Bash`, opencode/OpenHands `bash`) parsed into the file,
 * search or listing they read, so supersession can key them like `Read`/`Grep`/`LS` calls.
 *
 * The rule is "understood exactly or not at all": a command with anything this parser does not
 * know (redirections, substitutions, variables, globs in paths, unknown programs, unknown pipeline
 * filters) yields `null` and stays an opaque command. A wrong resource would stub a result whose
 * content no newer result repeats; an opaque command only costs a missed saving.
 *
 * Hand-written tokenizer rather than `shell-quote`: we need to *reject* what we do not understand
 * (shell-quote expands or passes through `$VAR`, globs and redirections as objects we would have to
 * re-inspect anyway), and the engine keeps its dependencies to small pure-JS ones that run alike in
 * the worker and the CLI.
 */
import { pushAll } from '../../arrays.ts'
import { normalizePathFixed } from './paths.ts'
import { git, isGlob, listing, path, plain, search } from './shell-queries.ts'
import { withFields } from '../../objects.ts'

/** Lines read from a file: `lines` 1-based inclusive (`end` null = to the end of the file). */
export type LineRange =
  | { readonly kind: 'lines'; readonly start: number; readonly end: number | null }
  /** `tail -n N`: the last N lines, only a full read covers it (the file length is unknown). */
  | { readonly kind: 'tail'; readonly count: number }

export type ShellResource =
  | { readonly kind: 'file'; readonly path: string; readonly range: LineRange }
  | {
      readonly kind: 'search'
      readonly program: string
      readonly pattern: string
      readonly paths: readonly string[]
      readonly options: readonly string[]
    }
  | {
      readonly kind: 'listing'
      readonly program: string
      readonly paths: readonly string[]
      readonly options: readonly string[]
    }
  | {
      readonly kind: 'git'
      readonly sub: 'show' | 'diff' | 'log'
      readonly args: readonly string[]
      readonly cwd: string
    }

export const FULL: LineRange = { kind: 'lines', start: 1, end: null }

type Token = { readonly op: '|' | '&&' | '||' | ';' } | { readonly word: string }

/**
 * Split a command line into words and control operators, honouring `'…'`, `"…"` and `\`.
 * Returns null for anything that makes the words uncertain: `$` expansion, backquotes,
 * redirections other than `2>/dev/null` / `2>&1`, `&`, here-docs, subshells, unquoted globs
 * (`*?[`) — a glob is marked by a leading NUL so callers can reject it where it matters.
 */
export function tokenize(line: string): Token[] | null {
  const out: Token[] = []
  let word = ''
  let inWord = false
  let glob = false
  const flush = () => {
    if (inWord) out.push({ word: glob ? `\0${word}` : word })
    word = ''
    inWord = false
    glob = false
  }
  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string
    if (c === "'") {
      const end = line.indexOf("'", i + 1)
      if (end < 0) return null
      word += line.slice(i + 1, end)
      inWord = true
      i = end
    } else if (c === '"') {
      let j = i + 1
      for (; j < line.length && line[j] !== '"'; j++) {
        const d = line[j] as string
        if (d === '$' || d === '`') return null
        if (d === '\\' && j + 1 < line.length && '"\\$`\n'.includes(line[j + 1] as string)) {
          j++
          word += line[j] as string
        } else word += d
      }
      if (j >= line.length) return null
      inWord = true
      i = j
    } else if (c === '\\') {
      if (i + 1 >= line.length) return null
      i++
      if (line[i] !== '\n') word += line[i] as string
      inWord = true
    } else if (c === ' ' || c === '\t') flush()
    else if (c === '\n' || c === ';') {
      flush()
      out.push({ op: ';' })
    } else if (c === '|' || c === '&') {
      flush()
      const two = line[i + 1] === c
      if (c === '&' && !two) return null // background job: its output interleaves unpredictably
      out.push({ op: two ? (c === '|' ? '||' : '&&') : '|' })
      if (two) i++
    } else if (c === '>' || c === '<') {
      // Only stderr discarding or merging is harmless; any other redirection is a write or an input.
      if (word === '2' && inWord) {
        const rest = line.slice(i)
        const m = /^>(\/dev\/null|&1)(?=[\s;|&]|$)/.exec(rest)
        if (!m) return null
        word = ''
        inWord = false
        i += m[0].length - 1
        continue
      }
      return null
    } else if (c === '$' || c === '`' || c === '(' || c === ')' || c === '{' || c === '}')
      return null
    else if (c === '#' && !inWord) {
      // A comment runs to the end of the line.
      const nl = line.indexOf('\n', i)
      if (nl < 0) break
      i = nl - 1
    } else {
      if (c === '*' || c === '?' || c === '[') glob = true
      if (c === '~' && !inWord) return null // home expansion: the path depends on the user
      word += c
      inWord = true
    }
  }
  flush()
  return out
}

/** The shell script inside a command argument: a string, or an argv such as `["bash","-lc","…"]`. */
export function commandText(value: unknown): string | null {
  if (typeof value === 'string') return value.trim() || null
  if (!Array.isArray(value) || value.length === 0 || !value.every((v) => typeof v === 'string'))
    return null
  const argv = value as string[]
  if (argv.length === 3 && isShell(argv[0] as string) && /^-l?c$/.test(argv[1] as string))
    return argv[2] as string
  // A plain argv: quote every word so the tokenizer reads it back unchanged.
  return argv.map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ')
}

const isShell = (p: string) => /^(?:.*\/)?(?:ba|z|da)?sh$/.test(p)

/** Commands that print nothing a reader relies on: they may sit in a chain beside a read. */
const HARMLESS = new Set(['echo', 'printf', 'pwd', 'true', ':'])

/**
 * The resources a command reads, in order, or null when any part of it is not understood.
 * `cwd` is where it runs (tool `workdir`, else the conversation's cwd); `cd` moves it.
 */
export function parseShellCommand(line: string, cwd?: string): ShellResource[] | null {
  const tokens = tokenize(line)
  if (!tokens) return null
  // Chains: `&&`, `||`, `;`; each member is a pipeline.
  const chains: string[][][] = [[[]]]
  for (const t of tokens) {
    const chain = chains[chains.length - 1] as string[][]
    if ('word' in t) (chain[chain.length - 1] as string[]).push(t.word)
    else if (t.op === '|') chain.push([])
    else chains.push([[]])
  }
  let dir = cwd
  const out: ShellResource[] = []
  for (const pipeline of chains) {
    if (pipeline.length === 1 && (pipeline[0] as string[]).length === 0) continue
    if (pipeline.some((stage) => stage.length === 0)) return null
    const first = pipeline[0] as string[]
    const program = plain(first[0] as string)
    if (program === 'cd') {
      if (pipeline.length > 1 || first.length !== 2 || isGlob(first[1] as string)) return null
      const target = first[1] as string
      if (target === '-') return null
      dir = normalizePathFixed(target, dir)
      continue
    }
    if (HARMLESS.has(program) && pipeline.length === 1) continue
    if (isShell(program) && first.length === 3 && /^-l?c$/.test(first[1] as string)) {
      if (pipeline.length > 1) return null
      const inner = parseShellCommand(plain(first[2] as string), dir)
      if (!inner) return null
      pushAll(out, inner)
      continue
    }
    const read = parsePipeline(pipeline, dir)
    if (!read) return null
    out.push(read)
  }
  return out.length > 0 ? out : null
}

function parsePipeline(
  pipeline: readonly (readonly string[])[],
  cwd?: string,
): ShellResource | null {
  let res = parseStage(pipeline[0] as readonly string[], cwd)
  for (const stage of pipeline.slice(1)) {
    if (!res) return null
    res = applyFilter(res, stage)
  }
  return res
}

/** A file read: `cat`, `sed -n`, `nl`, `head`, `tail`, `less`/`more`, or a search/listing/git. */
function parseStage(words: readonly string[], cwd?: string): ShellResource | null {
  const program = plain(words[0] as string)
  const args = words.slice(1)
  switch (program) {
    case 'cat':
    case 'less':
    case 'more':
    case 'nl': {
      const opts = args.filter((a) => a.startsWith('-') && a !== '-')
      const files = args.filter((a) => !a.startsWith('-'))
      // `nl -b a f` takes values; only the usual spellings are accepted.
      if (program === 'nl' && !opts.every((o) => /^-(ba|bt|w\d+|n(ln|rn|rz))$/.test(o))) return null
      if (program === 'cat' && !opts.every((o) => /^-[nbAvEsT]+$/.test(o))) return null
      if ((program === 'less' || program === 'more') && opts.length > 0) return null
      if (files.length !== 1) return null
      const p = path(files[0] as string, cwd)
      return p ? { kind: 'file', path: p, range: FULL } : null
    }
    case 'sed': {
      const r = sedRange(args)
      if (!r || r.files.length !== 1) return null
      const p = path(r.files[0] as string, cwd)
      return p ? { kind: 'file', path: p, range: r.range } : null
    }
    case 'head':
    case 'tail': {
      const r = countArg(args)
      if (!r || r.files.length !== 1) return null
      const p = path(r.files[0] as string, cwd)
      if (!p) return null
      return {
        kind: 'file',
        path: p,
        range: program === 'head' ? lines(1, r.count) : { kind: 'tail', count: r.count },
      }
    }
    case 'rg':
    case 'grep':
    case 'egrep':
      return search(program, args, cwd)
    case 'ls':
    case 'tree':
    case 'find':
      return listing(program, args, cwd)
    case 'git':
      return git(args, cwd)
    default:
      return null
  }
}

const lines = (start: number, end: number | null): LineRange => ({ kind: 'lines', start, end })

/** `sed -n 'a,bp' f` (also `'ap'`, `'a,$p'`); anything else sed can do is not a read. */
function sedRange(args: readonly string[]): { range: LineRange; files: readonly string[] } | null {
  if (args[0] !== '-n' || args.length < 3) return null
  const m = /^(\d+)(?:,(\d+|\$))?p$/.exec(plain(args[1] as string))
  if (!m) return null
  const start = Number(m[1])
  const end = m[2] === undefined ? start : m[2] === '$' ? null : Number(m[2])
  if (start < 1 || (end !== null && end < start)) return null
  return { range: lines(start, end), files: args.slice(2) }
}

/** `-n N`, `-nN`, `-N`, `--lines=N`; default 10. */
function countArg(args: readonly string[]): { count: number; files: readonly string[] } | null {
  let count = 10
  const files: string[] = []
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string
    let m: RegExpExecArray | null
    if (a === '-n') {
      const v = args[++i]
      if (v === undefined || !/^\d+$/.test(v)) return null
      count = Number(v)
    } else if ((m = /^(?:-n|--lines=|-)(\d+)$/.exec(a))) count = Number(m[1])
    else if (a.startsWith('-')) return null
    else files.push(a)
  }
  return { count, files }
}

/**
 * A pipeline stage after a read: `head`/`sed -n` narrow a file read's range, `nl`/`cat` only
 * number or pass it through; on searches and listings `head`/`sort`/`wc -l` are kept as options
 * (their output differs, so the key must too). Any other filter makes the command opaque.
 */
function applyFilter(res: ShellResource, stage: readonly string[]): ShellResource | null {
  const program = plain(stage[0] as string)
  const args = stage.slice(1)
  if (res.kind === 'file') {
    if (program === 'nl' || program === 'cat') {
      const ok = args.every((a) =>
        program === 'nl' ? /^-(ba|bt|w\d+|n(ln|rn|rz))$/.test(a) : /^-[nbAvEsT]+$/.test(a),
      )
      return ok ? res : null
    }
    if (res.range.kind !== 'lines') return null
    const { start, end } = res.range
    let from: number
    let to: number | null
    if (program === 'head') {
      const r = countArg(args)
      if (!r || r.files.length > 0) return null
      from = 1
      to = r.count
    } else if (program === 'sed') {
      const m = args.length === 2 ? sedRange([...args, 'x']) : null
      if (!m || m.range.kind !== 'lines') return null
      from = m.range.start
      to = m.range.end
    } else return null
    // Line k of the stream is line start+k-1 of the file.
    const s = start + from - 1
    const e0 = to === null ? end : start + to - 1
    const e = end === null ? e0 : e0 === null ? end : Math.min(end, e0)
    if (e !== null && e < s) return null
    return withFields(res, { range: lines(s, e) })
  }
  if (res.kind === 'git') return null
  const known =
    (program === 'head' && countArg(args)?.files.length === 0) ||
    (program === 'sort' && args.every((a) => /^-[a-z]+$/.test(a))) ||
    (program === 'wc' && args.length === 1 && args[0] === '-l')
  if (!known) return null
  return withFields(res, {
    options: [...res.options, `| ${[program, ...args.map(plain)].join(' ')}`],
  })
}

/** Does a read of range `later` contain everything a read of `earlier` showed? */
export function covers(later: LineRange, earlier: LineRange): boolean {
  if (later.kind === 'lines' && later.start === 1 && later.end === null) return true
  if (later.kind !== 'lines' || earlier.kind !== 'lines') return false
  if (later.start > earlier.start) return false
  if (later.end === null) return true
  return earlier.end !== null && later.end >= earlier.end
}

/** How a range is shown and keyed: `lines 40-180`, `lines 1-end`, `last 20 lines`. */
export function rangeLabel(r: LineRange): string {
  return r.kind === 'tail' ? `last ${r.count} lines` : `lines ${r.start}-${r.end ?? 'end'}`
}
