import type { Message, ReportedUsage, Role } from '../../engine/model.ts'
import type { Detection, ParseResult, ParseWarning, SniffedInput } from '../types.ts'
import { fail, ok, parseError, warning } from '../util.ts'

const HEADER = '# aider chat started at'
const HEADER_RE = /^# aider chat started at/m

/** formats.md §16 rule 1: any line `# aider chat started at` is structural certainty. */
export function detect(input: SniffedInput): Detection | null {
  if (input.kind !== 'text') return null
  const text = input.text
  const at = text.search(HEADER_RE)
  if (at >= 0) {
    const sessions = countHeaders(text)
    return {
      format: 'aider',
      confidence: 0.97,
      evidence: [`${sessions} line(s) \`# aider chat started at …\``],
    }
  }
  // Without a header it may still be a fragment of a history file: `####` input + `>` output.
  const head = text.slice(0, 200_000)
  const users = (head.match(/^#### /gm) ?? []).length
  const tools = (head.match(/^> .* {2}$/gm) ?? []).length
  if (users >= 2 && tools >= 1) {
    return {
      format: 'aider',
      confidence: 0.45,
      evidence: [`no session header; ${users} \`#### \` input lines, ${tools} \`> \` output lines`],
    }
  }
  return null
}

function countHeaders(text: string): number {
  let n = 0
  let i = text.indexOf(HEADER)
  while (i >= 0) {
    if (i === 0 || text.charCodeAt(i - 1) === 10) n++
    i = text.indexOf(HEADER, i + HEADER.length)
  }
  return n
}

/** One session of the history file (the part under one header). */
export interface AiderSession {
  /** 1-based line of the header (0 for text before the first header). */
  readonly line: number
  readonly startedAt?: string
  readonly start: number
  readonly end: number
  readonly userMessages: number
}

/** Strip the Markdown hard break aider appends (`  `) and one space after the `####`/`>` marker. */
function body(rest: string): string {
  const trimmed = rest.endsWith('  ') ? rest.slice(0, -2) : rest
  return trimmed.startsWith(' ') ? trimmed.slice(1) : trimmed
}

type Kind = 'user' | 'tool' | 'assistant'

interface Block {
  kind: Kind
  lines: string[]
  line: number
}

/** `7.3k` → 7300, `5,244` → 5244. */
function count(value: string | undefined): number | undefined {
  if (!value) return undefined
  const k = value.endsWith('k')
  const n = Number(value.replace(/[,k]/g, ''))
  return Number.isFinite(n) ? Math.round(k ? n * 1000 : n) : undefined
}

/** aider's `Tokens: 7.3k sent, 1.0k received.` line: rounded, but what the user saw. */
function usageOf(text: string): ReportedUsage | undefined {
  const m = /Tokens: ([\d.,]+k?) sent(.*?)([\d.,]+k?) received/.exec(text)
  if (!m) return undefined
  const sent = count(m[1])
  const write = count(/([\d.,]+k?) cache write/.exec(m[2] ?? '')?.[1])
  const hit = count(/([\d.,]+k?) cache hit/.exec(m[2] ?? '')?.[1])
  return {
    contextTokens: (sent ?? 0) + (write ?? 0) + (hit ?? 0),
    inputTokens: sent,
    outputTokens: count(m[3]),
    ...(write !== undefined ? { cacheWriteTokens: write } : {}),
    ...(hit !== undefined ? { cacheReadTokens: hit } : {}),
    source: 'aider "Tokens:" line (rounded)',
  }
}

/** Split the file into sessions in one pass (linear in the text length). */
export function sessions(text: string): AiderSession[] {
  const out: AiderSession[] = []
  let start = 0
  let line = 0
  let startedAt: string | undefined
  let users = 0
  let prevUser = false
  let offset = 0
  let lineNo = 1
  while (offset <= text.length) {
    let end = text.indexOf('\n', offset)
    if (end === -1) end = text.length
    if (text.startsWith(HEADER, offset)) {
      if (offset > start || line > 0)
        out.push({ line, startedAt, start, end: offset, userMessages: users })
      start = offset
      line = lineNo
      startedAt = text.slice(offset + HEADER.length, end).trim()
      users = 0
    }
    const isUser =
      text.startsWith('####', offset) && (end - offset === 4 || text[offset + 4] === ' ')
    if (isUser && !prevUser) users++
    prevUser = isUser
    if (end === text.length) break
    offset = end + 1
    lineNo++
  }
  out.push({ line, startedAt, start, end: text.length, userMessages: users })
  // Text before the first header that is only an Emacs modeline / blank is not a session.
  const first = out[0]
  if (out.length > 1 && first && first.line === 0 && first.userMessages === 0) {
    const pre = text
      .slice(first.start, first.end)
      .replace(/^-\*-.*-\*-\s*$/m, '')
      .trim()
    if (pre === '') out.shift()
  }
  return out
}

/** Where the line starting at `start` ends (past its newline), within `[start, end]`. */
function afterLine(text: string, start: number, end: number): number {
  const nl = text.indexOf('\n', start)
  return nl < 0 || nl >= end ? end : nl + 1
}

/** Offset in the original text (CRLF or not) of the start of 1-based `line`. */
function offsetOfLine(text: string, line: number): number {
  let offset = 0
  for (let l = 1; l < line; l++) {
    const nl = text.indexOf('\n', offset)
    if (nl < 0) return offset
    offset = nl + 1
  }
  return offset
}

/**
 * Parse the newest session that holds a conversation. aider writes a session header and its
 * start-up lines (`> Aider v…`, `> Main model: …`) as soon as it starts, before anything is said:
 * such a newest session is skipped for the newest one with a user message or a reply. The
 * sessions not loaded are reported as a warning (and listed in the notes). Never throws.
 */
export function parse(input: SniffedInput): ParseResult {
  if (input.kind !== 'text') {
    return fail(parseError(1, 0, 'expected aider Markdown (`# aider chat started at …`), got JSON'))
  }
  const text = input.text.replace(/\r\n/g, '\n')
  const all = sessions(text)
  if (all.length === 0)
    return fail(parseError(1, 0, 'expected aider Markdown (`# aider chat started at …`)'))
  const read = (s: AiderSession) =>
    readBlocks(
      text,
      s.line === 0 ? s.start : afterLine(text, s.start, s.end),
      s.end,
      s.line === 0 ? 1 : s.line + 1,
    )
  let chosenAt = -1
  let blocks: Block[] = []
  let fallbackAt = -1
  let fallbackBlocks: Block[] = []
  for (let i = all.length - 1; i >= 0 && chosenAt < 0; i--) {
    const found = read(all[i] as AiderSession)
    if (found.some((b) => b.kind !== 'tool')) {
      chosenAt = i
      blocks = found
    } else if (found.length > 0 && fallbackAt < 0) {
      fallbackAt = i
      fallbackBlocks = found
    }
  }
  if (chosenAt < 0) {
    // Only start-up output anywhere: load the newest session that has any.
    chosenAt = fallbackAt
    blocks = fallbackBlocks
  }
  const chosen = all[chosenAt >= 0 ? chosenAt : all.length - 1] as AiderSession
  const messages: Message[] = []
  let model: string | undefined
  let lastAssistant = -1
  for (const b of blocks) {
    const role: Role = b.kind === 'assistant' ? 'assistant' : 'user'
    const body = b.lines.join('\n')
    const msg: Message = {
      id: `m${messages.length}`,
      role,
      parts: [{ kind: 'text', text: body }],
      ...(b.kind === 'tool' ? { injected: true } : {}),
      line: b.line,
    }
    if (b.kind === 'tool') {
      model ??= /^(?:Main model|Models?): (\S+)/m.exec(body)?.[1]
      const usage = usageOf(body)
      const target = messages[lastAssistant]
      if (usage && target && !target.usage) messages[lastAssistant] = { ...target, usage }
    }
    if (b.kind === 'assistant') lastAssistant = messages.length
    messages.push(msg)
  }
  if (messages.length === 0) {
    const at = chosen.line
    return fail(
      parseError(
        at,
        offsetOfLine(input.text, Math.max(at, 1)),
        all.length > 1
          ? `none of the ${all.length} sessions holds messages (expected \`#### \` input, \`> \` output or replies)`
          : `session at line ${at} holds no messages (expected \`#### \` input, \`> \` output or replies)`,
      ),
    )
  }
  const others = all.filter((s) => s !== chosen)
  const newer = all.slice(chosenAt + 1)
  const where = (s: AiderSession) =>
    `${s.line === 0 ? 'before the first header' : `line ${s.line}`}${s.startedAt ? `, started ${s.startedAt}` : ''}`
  const warnings: ParseWarning[] = []
  if (all.length > 1) {
    const skipped =
      newer.length > 0
        ? `; the newer session(s) at ${newer.map(where).join('; ')} hold only aider's start-up output (nothing said yet) and were skipped`
        : ''
    warnings.push(
      warning(
        Math.max(chosen.line, 1),
        offsetOfLine(input.text, Math.max(chosen.line, 1)),
        `the file holds ${all.length} aider sessions; loaded one (${where(chosen)}), the newest with a conversation${skipped}; the other ${others.length} are not loaded here: open one from the item list (CLI: --item N)`,
      ),
    )
  }
  const notes = [
    `${all.length} session(s) in the file; showing ${newer.length > 0 ? 'the newest with a conversation' : 'the last one'} (line ${chosen.line}${chosen.startedAt ? `, started ${chosen.startedAt}` : ''})`,
    ...others.map(
      (s, i) =>
        `session ${i + 1}: ${s.line === 0 ? 'before the first header' : `line ${s.line}`}${s.startedAt ? `, started ${s.startedAt}` : ''}, ${s.userMessages} user message(s)`,
    ),
  ]
  return ok(
    {
      meta: {
        format: 'aider',
        model,
        title: chosen.startedAt ? `aider chat started at ${chosen.startedAt}` : undefined,
        wrapper: 'aider chat history (Markdown)',
        notes,
      },
      system: [],
      tools: [],
      messages,
      markers: [],
      source: {
        startedAt: chosen.startedAt,
        sessions: all.map((s) => ({
          line: s.line,
          startedAt: s.startedAt,
          userMessages: s.userMessages,
        })),
      },
    },
    warnings,
  )
}

/**
 * One linear pass over the session's lines: `####` runs are user input, `>` runs (plus lazy
 * continuation lines aider writes when one output spans lines) are tool output, the rest is the
 * assistant reply. A blank line ends an input/output run.
 */
function readBlocks(text: string, from: number, to: number, firstLine: number): Block[] {
  const blocks: Block[] = []
  let cur: Block | undefined
  let prevBlank = true
  let offset = from
  let lineNo = firstLine
  const flush = () => {
    if (!cur) return
    if (cur.kind === 'assistant') {
      while (cur.lines.length > 0 && cur.lines[cur.lines.length - 1]?.trim() === '') cur.lines.pop()
    }
    if (cur.lines.length > 0) blocks.push(cur)
    cur = undefined
  }
  while (offset < to) {
    let end = text.indexOf('\n', offset)
    if (end === -1 || end > to) end = to
    const line = text.slice(offset, end)
    const blank = line.trim() === ''
    if (line.startsWith('####') && (line.length === 4 || line[4] === ' ')) {
      if (cur?.kind !== 'user' || prevBlank) {
        flush()
        cur = { kind: 'user', lines: [], line: lineNo }
      }
      cur.lines.push(body(line.slice(4)))
    } else if (line.startsWith('>') && (line.length === 1 || line[1] === ' ')) {
      if (cur?.kind !== 'tool' || prevBlank) {
        flush()
        cur = { kind: 'tool', lines: [], line: lineNo }
      }
      cur.lines.push(body(line.slice(1)))
    } else if (blank) {
      if (cur?.kind === 'assistant') cur.lines.push(line)
      else flush()
    } else if (cur?.kind === 'tool' && !prevBlank) {
      // Lazy continuation: aider prefixes only the first line of a multi-line output.
      cur.lines.push(line.endsWith('  ') ? line.slice(0, -2) : line)
    } else if (cur?.kind === 'assistant') {
      cur.lines.push(line)
    } else {
      flush()
      cur = { kind: 'assistant', lines: [line], line: lineNo }
    }
    prevBlank = blank
    offset = end + 1
    lineNo++
  }
  flush()
  return blocks
}
