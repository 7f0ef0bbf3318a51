/**
 * An in-memory project tree. Tool results (Read, Grep, Glob, git status, test listings) are
 * computed from it rather than hand-written, so repeated reads of a file really show its current,
 * edited content — which is exactly what a compaction tool must notice.
 */

export interface ReadRange {
  readonly offset?: number
  readonly limit?: number
}

export interface RenderedRead {
  /** `cat -n` style text, as the model sees it. */
  readonly numbered: string
  /** The raw lines returned (no numbers), as `toolUseResult.file.content` stores them. */
  readonly raw: string
  readonly startLine: number
  readonly numLines: number
  readonly totalLines: number
}

export interface GrepHit {
  readonly path: string
  readonly line: number
  readonly text: string
}

/** Shell-style glob → anchored regex (supports **, *, ?, {a,b}). */
export function globToRegex(glob: string): RegExp {
  let re = ''
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i] as string
    if (c === '*' && glob[i + 1] === '*') {
      const slash = glob[i + 2] === '/'
      re += slash ? '(?:.*/)?' : '.*'
      i += slash ? 2 : 1
    } else if (c === '*') re += '[^/]*'
    else if (c === '?') re += '[^/]'
    else if (c === '{') re += '(?:'
    else if (c === '}') re += ')'
    else if (c === ',') re += '|'
    else re += /[.+^$()|[\]\\]/.test(c) ? '\\' + c : c
  }
  return new RegExp('^' + re + '$')
}

export class Vfs {
  private readonly files = new Map<string, string>()
  private readonly initial = new Map<string, string>()
  // Sorted listing, rebuilt only when files are added or removed (hot in big generations).
  private sorted: string[] | null = null

  readonly root: string

  constructor(root: string, seed: ReadonlyArray<readonly [string, string]>) {
    this.root = root
    for (const [path, text] of seed) {
      this.files.set(path, text)
      this.initial.set(path, text)
    }
  }

  abs(path: string): string {
    return this.root + '/' + path
  }

  has(path: string): boolean {
    return this.files.has(path)
  }

  get(path: string): string {
    const text = this.files.get(path)
    if (text === undefined) throw new Error(`vfs: no file ${path}`)
    return text
  }

  paths(): readonly string[] {
    if (!this.sorted) this.sorted = [...this.files.keys()].sort()
    return this.sorted
  }

  write(path: string, text: string): boolean {
    const existed = this.files.has(path)
    this.files.set(path, text)
    if (!existed) this.sorted = null
    return existed
  }

  remove(path: string): void {
    if (this.files.delete(path)) this.sorted = null
  }

  /** Replace one occurrence; returns false (file untouched) when `oldText` is absent. */
  replace(path: string, oldText: string, newText: string): boolean {
    const text = this.get(path)
    const at = text.indexOf(oldText)
    if (at < 0) return false
    this.files.set(path, text.slice(0, at) + newText + text.slice(at + oldText.length))
    return true
  }

  read(path: string, range: ReadRange = {}): RenderedRead {
    const all = this.get(path).replace(/\n$/, '').split('\n')
    const start = Math.max(1, range.offset ?? 1)
    const end = Math.min(all.length, range.limit ? start + range.limit - 1 : all.length)
    const lines = all.slice(start - 1, end)
    const numbered = lines.map((l, i) => `${String(start + i).padStart(6)}→${l}`).join('\n')
    return {
      numbered,
      raw: lines.join('\n'),
      startLine: start,
      numLines: lines.length,
      totalLines: all.length,
    }
  }

  /** `cat -n` snippet around the first line containing `needle` (what Edit results show). */
  snippetAround(path: string, needle: string, context = 5): string {
    const all = this.get(path).replace(/\n$/, '').split('\n')
    const first = needle.split('\n')[0] ?? ''
    const hit = Math.max(
      0,
      all.findIndex((l) => l.includes(first)),
    )
    const span = needle.split('\n').length
    const from = Math.max(0, hit - context)
    const to = Math.min(all.length, hit + span + context)
    return all
      .slice(from, to)
      .map((l, i) => `${String(from + i + 1).padStart(6)}→${l}`)
      .join('\n')
  }

  glob(pattern: string, under?: string): string[] {
    const re = globToRegex(pattern)
    const prefix = under ? under.replace(/\/$/, '') + '/' : ''
    return this.paths().filter((p) => p.startsWith(prefix) && re.test(p.slice(prefix.length)))
  }

  grep(pattern: string, under = '', fileGlob?: string): GrepHit[] {
    const re = new RegExp(pattern)
    const globRe = fileGlob
      ? globToRegex(fileGlob.includes('/') ? fileGlob : '**/' + fileGlob)
      : null
    const hits: GrepHit[] = []
    for (const path of this.paths()) {
      if (under && path !== under && !path.startsWith(under.replace(/\/$/, '') + '/')) continue
      if (globRe && !globRe.test(path)) continue
      if (path.startsWith('.claude/')) continue
      this.get(path)
        .split('\n')
        .forEach((text, i) => {
          if (re.test(text)) hits.push({ path, line: i + 1, text })
        })
    }
    return hits
  }

  /** Paths changed since the start of the session, split like `git status` does. */
  changes(): { modified: string[]; untracked: string[] } {
    const modified: string[] = []
    const untracked: string[] = []
    for (const path of this.paths()) {
      const before = this.initial.get(path)
      if (before === undefined) untracked.push(path)
      else if (before !== this.get(path)) modified.push(path)
    }
    return { modified, untracked }
  }

  /** After a commit, the current tree is the new baseline for status and diffs. */
  commit(): void {
    this.initial.clear()
    for (const [path, text] of this.files) this.initial.set(path, text)
  }

  /** 1-based number of the first line containing `needle` (0 when absent). */
  lineOf(path: string, needle: string): number {
    return (
      this.get(path)
        .split('\n')
        .findIndex((l) => l.includes(needle)) + 1
    )
  }

  /** Rough insertions/deletions per changed file (multiset line diff; good enough for --stat). */
  diffStat(path: string): { added: number; removed: number } {
    const before = this.initial.has(path) ? (this.initial.get(path) as string).split('\n') : []
    const after = this.get(path).split('\n')
    const counts = new Map<string, number>()
    for (const l of before) counts.set(l, (counts.get(l) ?? 0) + 1)
    let added = 0
    for (const l of after) {
      const n = counts.get(l) ?? 0
      if (n > 0) counts.set(l, n - 1)
      else added++
    }
    let removed = 0
    for (const n of counts.values()) removed += n
    return { added, removed }
  }

  /** `describe > it` names in a test file, in order, read from its current source. */
  testNames(path: string): string[] {
    const names: string[] = []
    let suite = ''
    for (const line of this.get(path).split('\n')) {
      const d = /^\s*describe\('([^']+)'/.exec(line)
      if (d) suite = d[1] as string
      const t = /^\s*it\('([^']+)'/.exec(line)
      if (t) names.push(suite ? `${suite} > ${t[1]}` : (t[1] as string))
    }
    return names
  }
}
