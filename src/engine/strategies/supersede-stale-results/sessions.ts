/**
 * Codex unified exec: `exec_command` answers "Process running with session ID N" when its command
 * has not finished, and later `write_stdin {session_id: N, chars}` calls write to (or, with empty
 * `chars`, poll) that process. Their output is more output of the same command, so it is keyed to
 * the session's command rather than read as a new opaque `write_stdin` call — without this every
 * poll of a long test run is a resource of its own and nothing ever supersedes it.
 */
import type { Conversation, ToolCallPart, ToolResultPart } from '../../model.ts'
import type { Pairing } from '../../pairing.ts'
import { normalizeToolName } from './categories.ts'
import { parseArgs, type ResourceIdentity } from './identity.ts'

/** The line Codex prints when a command keeps running in the background. */
const RUNNING = /Process running with session ID (\d+)/

/** A `write_stdin` call and the call that started the session it writes to. */
export interface SessionLink {
  readonly session: number
  /** The `exec_command` (or other shell call) whose output opened the session. */
  readonly origin: ToolCallPart
  /** What was written (`''` for a poll). */
  readonly chars: string
}

const isStdinWrite = (name: string) => normalizeToolName(name) === 'writestdin'

function resultText(part: ToolResultPart): string {
  let text = ''
  for (const c of part.content) if (c.kind === 'text') text += c.text
  return text
}

function sessionArgs(call: ToolCallPart): { session: number; chars: string } | null {
  const parsed = parseArgs(call.argsRaw)
  if (!parsed || 'raw' in parsed) return null
  const id = parsed.dict['session_id']
  const session =
    typeof id === 'number' && Number.isInteger(id)
      ? id
      : typeof id === 'string' && /^\d+$/.test(id)
        ? Number(id)
        : null
  if (session === null) return null
  const chars = parsed.dict['chars']
  return { session, chars: typeof chars === 'string' ? chars : '' }
}

const linksCache = new WeakMap<Pairing, Map<ToolCallPart, SessionLink>>()

/**
 * Every `write_stdin` call whose session was opened earlier in the conversation, mapped to that
 * session's origin. Calls to a session never seen (cut history) are left out: they stay opaque.
 * A session id reused after its process ended points to the newest opener before the write.
 */
export function sessionLinks(
  conversation: Pick<Conversation, 'messages'>,
  pairing: Pairing,
): ReadonlyMap<ToolCallPart, SessionLink> {
  const cached = linksCache.get(pairing)
  if (cached) return cached
  const out = new Map<ToolCallPart, SessionLink>()
  const open = new Map<number, ToolCallPart>()
  for (const c of pairing.calls) {
    const call = conversation.messages[c.message]?.parts[c.part]
    if (call?.kind !== 'tool_call') continue
    let origin = call
    if (isStdinWrite(call.name)) {
      const args = sessionArgs(call)
      const opener = args ? open.get(args.session) : undefined
      if (args && opener) {
        out.set(call, { session: args.session, origin: opener, chars: args.chars })
        origin = opener
      }
    }
    for (const r of c.results) {
      const info = pairing.results[r]
      const part = info ? conversation.messages[info.message]?.parts[info.part] : undefined
      if (part?.kind !== 'tool_result') continue
      const m = RUNNING.exec(resultText(part))
      if (m) open.set(Number(m[1]), origin)
    }
  }
  linksCache.set(pairing, out)
  return out
}

/**
 * The identity of a session's continuation: the session command's own key for a poll (the newest
 * output of a command is what a re-run would show), with the written text as a secondary key for
 * input (another answer to another question). A session whose command was read as a file read
 * keeps its key apart: a later chunk of a read is not the whole read again.
 */
export function continuationIdentity(
  session: ResourceIdentity,
  link: SessionLink,
): ResourceIdentity {
  const secondary = [
    ...session.secondary,
    ...(session.readAs && session.readAs !== 'command_execution' ? ['continued'] : []),
    ...(link.chars !== '' ? [`stdin:${JSON.stringify(link.chars)}`] : []),
  ]
  const key =
    secondary.length === session.secondary.length
      ? session.key
      : JSON.stringify([session.tool, 'session', session.key, ...secondary])
  return {
    tool: session.tool,
    primary: session.primary,
    secondary,
    key,
    readAs: 'command_execution',
    continues: { session: link.session },
  }
}
