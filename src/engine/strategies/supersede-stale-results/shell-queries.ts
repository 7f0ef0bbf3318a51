/**
 * The shell commands that query rather than read one file — `rg`/`grep` searches, `ls`/`tree`/`find`
 * listings, `git show|diff|log` — as resources (see shell.ts, whose tokens these are: a leading
 * NUL marks a word that held an unquoted glob).
 */
import { pushAll } from '../../arrays.ts'
import { normalizePathFixed } from './paths.ts'
import type { ShellResource } from './shell.ts'

/** Did the word hold an unquoted glob? (the tokenizer marks it with a leading NUL). */
export const isGlob = (w: string) => w.startsWith('\0')
/** The word as written, without the glob mark. */
export const plain = (w: string) => (isGlob(w) ? w.slice(1) : w)

/** A path word resolved against `cwd`; a glob or an empty word has no single path. */
export const path = (w: string, cwd?: string): string | null =>
  isGlob(w) || w === '' ? null : normalizePathFixed(w, cwd)

/** rg/grep options that take a value as the next word. */
const SEARCH_VALUE_OPTS = new Set([
  '-e',
  '--regexp',
  '-f',
  '--file',
  '-g',
  '--glob',
  '--iglob',
  '-t',
  '--type',
  '-T',
  '--type-not',
  '-A',
  '-B',
  '-C',
  '-m',
  '--max-count',
  '--max-depth',
  '-d',
  '-M',
  '--max-columns',
  '--include',
  '--exclude',
  '--exclude-dir',
  '--sort',
  '-j',
  '--threads',
])

/**
 * `rg`/`grep` [options] pattern [paths]: keyed by pattern, resolved paths and every option as
 * written (so two searches share a key only when they would print the same lines).
 * `rg --files` lists files instead.
 */
export function search(
  program: string,
  args: readonly string[],
  cwd?: string,
): ShellResource | null {
  const options: string[] = []
  const words: string[] = []
  let pattern: string | null = null
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string
    if (a === '--') {
      pushAll(words, args.slice(i + 1))
      break
    }
    if (a.startsWith('-') && a.length > 1) {
      if (SEARCH_VALUE_OPTS.has(a)) {
        const v = args[++i]
        if (v === undefined) return null
        if (a === '-e' || a === '--regexp') {
          if (pattern !== null) return null
          pattern = plain(v)
        } else options.push(`${a} ${plain(v)}`)
      } else options.push(a)
    } else words.push(a)
  }
  if (program === 'rg' && options.includes('--files')) {
    const paths = resolveAll(words, cwd)
    return paths ? { kind: 'listing', program, paths, options: options.sort() } : null
  }
  if (pattern === null) {
    if (words.length === 0) return null
    // The pattern is quoted text, never a path: a glob mark here is just regex characters.
    pattern = plain(words.shift() as string)
  }
  const paths = resolveAll(words.length > 0 ? words : ['.'], cwd)
  if (!paths) return null
  return { kind: 'search', program, pattern, paths, options: options.sort() }
}

function resolveAll(words: readonly string[], cwd?: string): string[] | null {
  const out: string[] = []
  for (const w of words) {
    const p = path(w, cwd)
    if (!p) return null
    out.push(p)
  }
  return out
}

/** `ls`/`tree` [options] [paths]; `find` [paths] [expression]: keyed by paths + options. */
export function listing(
  program: string,
  args: readonly string[],
  cwd?: string,
): ShellResource | null {
  if (program === 'find') {
    let i = 0
    const roots: string[] = []
    for (; i < args.length && !/^[-(!]/.test(args[i] as string); i++) roots.push(args[i] as string)
    const expr = args.slice(i).map(plain)
    // `-exec`/`-delete` act on files; `-fprint` writes one: not a listing.
    if (expr.some((e) => /^-(exec|execdir|ok|okdir|delete|fprint|fprintf|fls)$/.test(e)))
      return null
    const paths = resolveAll(roots.length > 0 ? roots : ['.'], cwd)
    return paths ? { kind: 'listing', program, paths, options: expr } : null
  }
  const options: string[] = []
  const words: string[] = []
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string
    if (a.startsWith('-') && a.length > 1) {
      if (program === 'tree' && /^-[LPIo]$/.test(a)) {
        if (a === '-o') return null // writes its output to a file
        const v = args[++i]
        if (v === undefined) return null
        options.push(`${a} ${plain(v)}`)
      } else options.push(a)
    } else words.push(a)
  }
  const paths = resolveAll(words.length > 0 ? words : ['.'], cwd)
  return paths ? { kind: 'listing', program, paths, options: options.sort() } : null
}

/** `git [-C dir] show|diff|log …`: keyed by the words as written and the directory it ran in. */
export function git(args: readonly string[], cwd?: string): ShellResource | null {
  let dir = cwd
  let i = 0
  while (args[i] === '-C' || args[i] === '--no-pager') {
    if (args[i] === '-C') {
      const d = args[i + 1]
      if (d === undefined || isGlob(d)) return null
      dir = normalizePathFixed(d, dir)
      i += 2
    } else i++
  }
  const sub = args[i]
  if (sub !== 'show' && sub !== 'diff' && sub !== 'log') return null
  const rest = args.slice(i + 1)
  // `--output=` writes a file; globs make the paths uncertain.
  if (rest.some((a) => isGlob(a) || a.startsWith('--output'))) return null
  const sep = rest.indexOf('--')
  // Paths after `--` are resolved so `git diff -- a.ts` from two directories compare right.
  const words =
    sep < 0
      ? rest
      : [...rest.slice(0, sep + 1), ...rest.slice(sep + 1).map((p) => normalizePathFixed(p, dir))]
  return { kind: 'git', sub, args: words, cwd: dir ?? '' }
}
