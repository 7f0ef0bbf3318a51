/**
 * A deliberately small syntax highlighter for the Export preview: one list of sticky regular
 * expressions per language, tried in order at each position; whatever none of them matches is
 * plain text. It only has to make generated config files readable, not parse them, and its output
 * is data (kind + text) that React renders as text — never markup.
 */
import type { ExportLanguage } from '../../../store/index.ts'

export type TokenKind = 'plain' | 'key' | 'string' | 'number' | 'keyword' | 'comment' | 'punct'

export interface Token {
  readonly kind: TokenKind
  readonly text: string
}

interface Rule {
  readonly kind: TokenKind
  readonly re: RegExp
}

const rule = (kind: TokenKind, source: string, flags = ''): Rule => ({
  kind,
  re: new RegExp(source, `y${flags}`),
})

const DQ = String.raw`"(?:[^"\\\n]|\\.)*"?`
const SQ = String.raw`'(?:[^'\\\n]|\\.)*'?`
const NUM = String.raw`-?\b\d[\d_]*(?:\.\d+)?(?:[eE][+-]?\d+)?\b`
const words = (list: string) => String.raw`\b(?:${list.trim().split(/\s+/).join('|')})\b`

const JSON_RULES: readonly Rule[] = [
  rule('key', `${DQ}(?=\\s*:)`),
  rule('string', DQ),
  rule('number', NUM),
  rule('keyword', words('true false null')),
  rule('punct', String.raw`[{}\[\],:]`),
]

/** opencode.json is read as JSONC: JSON with `//` and block comments. */
const JSONC_RULES: readonly Rule[] = [
  rule('comment', String.raw`//.*`),
  rule('comment', String.raw`/\*[\s\S]*?(?:\*/|$)`),
  ...JSON_RULES,
]

const YAML_RULES: readonly Rule[] = [
  rule('comment', String.raw`#.*`),
  // A mapping key: at the start of a line, after indentation and list dashes.
  rule('key', String.raw`(?<=^[ \t]*(?:-[ \t]+)*)[A-Za-z_$][\w.$/-]*(?=[ \t]*:(?:[ \t]|$))`, 'm'),
  rule('key', `(?<=^[ \\t]*(?:-[ \\t]+)*)(?:${DQ}|${SQ})(?=[ \\t]*:(?:[ \\t]|$))`, 'm'),
  rule('string', DQ),
  rule('string', SQ),
  rule('number', NUM),
  rule('keyword', words('true false null yes no on off') + '|~'),
  rule('punct', String.raw`[{}\[\],:-]`),
]

const TS_RULES: readonly Rule[] = [
  rule('comment', String.raw`//.*`),
  rule('comment', String.raw`/\*[\s\S]*?(?:\*/|$)`),
  rule('string', DQ),
  rule('string', SQ),
  rule('string', '`(?:[^`\\\\]|\\\\.)*`?'),
  rule(
    'keyword',
    words(`import export from const let var function return new type interface as async await
      true false null undefined if else for of in default satisfies readonly`),
  ),
  rule('key', String.raw`\b[A-Za-z_$][\w$]*(?=\s*:(?!:))`),
  rule('number', NUM),
  rule('punct', String.raw`[{}\[\]()=,:;.<>?!]+`),
]

const PYTHON_RULES: readonly Rule[] = [
  rule('comment', String.raw`#.*`),
  rule('string', String.raw`[rbfRBF]{0,2}"""[\s\S]*?(?:"""|$)`),
  rule('string', String.raw`[rbfRBF]{0,2}'''[\s\S]*?(?:'''|$)`),
  rule('string', `[rbfRBF]{0,2}${DQ}`),
  rule('string', `[rbfRBF]{0,2}${SQ}`),
  rule(
    'keyword',
    words(`import from as def return class if elif else for in while with lambda None True False
      and or not async await pass`),
  ),
  rule('key', String.raw`\b[A-Za-z_]\w*(?=\s*=(?!=))`),
  rule('number', NUM),
  rule('punct', String.raw`[{}\[\]()=,:.]+`),
]

const PHP_RULES: readonly Rule[] = [
  rule('keyword', String.raw`<\?php\b|\?>`),
  rule('comment', String.raw`(?://|#).*`),
  rule('comment', String.raw`/\*[\s\S]*?(?:\*/|$)`),
  rule('key', `(?:${DQ}|${SQ})(?=\\s*=>)`),
  rule('string', DQ),
  rule('string', SQ),
  rule('key', String.raw`\$[A-Za-z_]\w*`),
  rule('keyword', words('return array true false null new use namespace declare strict_types')),
  rule('number', NUM),
  rule('punct', String.raw`=>|[{}\[\]()=,;:]`),
]

const CSV_RULES: readonly Rule[] = [
  // The header row: everything before the first line end.
  rule('key', String.raw`(?<![\s\S])[^\r\n]*`),
  rule('string', String.raw`"(?:[^"]|"")*"?`),
  rule('number', String.raw`-?\d+(?:\.\d+)?(?=,|\r?\n|$)`),
  rule('punct', ','),
]

const MARKDOWN_RULES: readonly Rule[] = [
  rule('keyword', String.raw`^#{1,6} .*`, 'm'),
  rule('comment', String.raw`^>.*`, 'm'),
  rule('string', '`[^`\\n]*`'),
]

const RULES: Record<ExportLanguage, readonly Rule[]> = {
  json: JSON_RULES,
  jsonc: JSONC_RULES,
  jsonl: JSON_RULES,
  text: [],
  yaml: YAML_RULES,
  typescript: TS_RULES,
  python: PYTHON_RULES,
  php: PHP_RULES,
  csv: CSV_RULES,
  markdown: MARKDOWN_RULES,
}

/** Split `text` into tokens; concatenating their text gives `text` back exactly. */
export function tokenize(text: string, language: ExportLanguage): Token[] {
  const rules = RULES[language]
  const out: Token[] = []
  let plainStart = 0
  let i = 0
  const flushPlain = (end: number) => {
    if (end > plainStart) out.push({ kind: 'plain', text: text.slice(plainStart, end) })
  }
  while (i < text.length) {
    let matched: { kind: TokenKind; text: string } | null = null
    for (const r of rules) {
      r.re.lastIndex = i
      const m = r.re.exec(text)
      if (m && m[0].length > 0) {
        matched = { kind: r.kind, text: m[0] }
        break
      }
    }
    if (matched) {
      flushPlain(i)
      out.push(matched)
      i += matched.text.length
      plainStart = i
    } else {
      // Skip a whole word at once so a keyword rule never matches inside an identifier.
      const word = /[A-Za-z0-9_$]+/y
      word.lastIndex = i
      const w = word.exec(text)
      i += w ? w[0].length : 1
    }
  }
  flushPlain(i)
  return out
}

/** Cut long files for the preview (download and copy always use the whole text). */
export function previewText(text: string, maxChars: number): { text: string; cut: boolean } {
  if (text.length <= maxChars) return { text, cut: false }
  const end = text.lastIndexOf('\n', maxChars)
  return { text: text.slice(0, end > maxChars / 2 ? end + 1 : maxChars), cut: true }
}
