import type { Message, Part } from '../model.ts'
import { pushAll, sameItems } from '../arrays.ts'
import { readMessage, sameFacts, type Facts, type Item, type MessageFacts } from './digest-facts.ts'

/**
 * The facts of a summary request's messages (digest-facts.ts), folded in runs of messages that
 * are kept from one request to the next over the same conversation.
 *
 * An edit of a step's numbers re-plans the whole conversation, and the summary request that
 * follows covers nearly the same thousands of messages as the last one: many are new copies
 * (another stub, another cleared output) that give the digest the same facts, a few groups more or
 * fewer may be dropped (so positions shift), and the span ends a little earlier or later. So the
 * facts a message gives are shared between its copies, the messages are cut into runs where their
 * ids say (the same cuts whatever was dropped around them), and a run whose messages give the very
 * same facts as last time keeps its fold: only the runs that changed are folded again, and the
 * runs' folds are joined in order. On the bench's 10,000 messages this took a one-step edit of the
 * opencode preset from about 16–18 to 12.5 ms (the fold was a quarter of it). It does little where
 * an edit drops groups all over the span (the recommended preset's supersede step with another
 * maxStubsPerResource): most runs then change.
 */

/** What a message gives: its facts, and whether a run of messages ends after it. */
interface Read {
  readonly facts: MessageFacts
  readonly cut: boolean
}

// Messages are immutable and a summary request passes the ones nothing changed as themselves: a
// re-plan summarises the same 10,000 messages again, so each is read once (its text joined and
// flattened, its calls' files and commands found), not once per request.
const read = new WeakMap<Message, Read>()

/** Runs end after a message whose id hashes to 0 modulo this (about this many messages each)... */
const RUN = 64
/** ...or at this length. */
const LONGEST_RUN = 4 * RUN

/** The fold of one run of messages; an errored result naming no tool is named when joined. */
interface RunFold {
  readonly messages: readonly Message[]
  /** Ended at a cut or at the longest length, not at the end of the list (which may grow). */
  readonly closed: boolean
  readonly facts: readonly MessageFacts[]
  readonly userRequests: readonly string[]
  readonly toolCounts: ReadonlyMap<string, number>
  /** The run's calls' names by id (the last call with an id wins). */
  readonly callNames: ReadonlyMap<string, string>
  /** Each file once, in the order the run first names it. */
  readonly files: readonly string[]
  readonly commands: readonly string[]
  readonly errors: readonly (string | Unnamed)[]
  readonly earlierSummaries: readonly string[]
  readonly latest: string | null
  readonly toolCalls: number
  readonly toolResults: number
}

/** An errored result that names no tool, whose call is not in its run (named when joined). */
interface Unnamed {
  readonly callId: string
  readonly line: string
}

/** The last request gathered over one conversation (keyed by its first message). */
interface Last {
  readonly messages: readonly Message[]
  readonly result: Facts
  /** Its runs' folds, by the id of each run's first message. */
  readonly runs: ReadonlyMap<string, RunFold>
  /** The message last read for each id: what a new copy of that message is compared with. */
  readonly byId: Map<string, Seen>
}

// Keyed by the conversation's own first message object, so an entry goes with its conversation.
const lasts = new WeakMap<Message, Last>()

/** The facts the digest is built from, as one pass over the messages would gather them. */
export function gather(messages: readonly Message[]): Facts {
  const first = messages[0]
  const last = first ? lasts.get(first) : undefined
  if (last && sameItems(last.messages, messages)) return last.result
  const byId = last?.byId ?? new Map<string, Seen>()
  const runs = new Map<string, RunFold>()
  const folds: RunFold[] = []
  const facts: MessageFacts[] = []
  for (let m = 0; m < messages.length;) {
    const start = m
    const id = (messages[start] as Message).id
    const kept = last?.runs.get(id)
    // The very same messages as a run that ended where a run ends: the same run, read no further.
    // (Any cut gives the same facts once joined; cutting only where ids say keeps runs reusable.)
    if (kept?.closed && sameRun(kept.messages, messages, start)) {
      runs.set(id, kept)
      folds.push(kept)
      m += kept.messages.length
      continue
    }
    facts.length = 0
    let closed = false
    while (m < messages.length && !closed) {
      const r = readOf(messages[m] as Message, byId)
      facts.push(r.facts)
      m++
      closed = r.cut || m - start >= LONGEST_RUN
    }
    const runMessages = messages.slice(start, m)
    const run =
      kept && sameItems(kept.facts, facts)
        ? { ...kept, messages: runMessages, closed }
        : foldRun(facts.slice(), runMessages, closed)
    runs.set(id, run)
    folds.push(run)
  }
  const result = join(folds, messages.length)
  if (first) lasts.set(first, { messages, result, runs, byId })
  return result
}

/** Are `run`'s messages those of `messages` from `start` on, object for object? */
function sameRun(run: readonly Message[], messages: readonly Message[], start: number): boolean {
  if (start + run.length > messages.length) return false
  for (let i = 0; i < run.length; i++) if (run[i] !== messages[start + i]) return false
  return true
}

/** The message last read for an id, and what it gave. */
interface Seen {
  readonly message: Message
  readonly read: Read
}

/**
 * A message's facts: read once per message object, and the very object an earlier copy of the
 * same message gave when they are the same facts (so that runs compare by identity). A copy that
 * differs only where the digest does not look is not read at all (see `sameReading`).
 */
function readOf(message: Message, byId: Map<string, Seen>): Read {
  let r = read.get(message)
  if (r !== undefined) return r
  const earlier = byId.get(message.id)
  if (earlier !== undefined && sameReading(earlier.message, message)) r = earlier.read
  else {
    let facts = readMessage(message)
    if (earlier !== undefined && sameFacts(earlier.read.facts, facts)) facts = earlier.read.facts
    r = { facts, cut: earlier?.read.cut ?? hashOf(message.id) % RUN === 0 }
  }
  read.set(message, r)
  byId.set(message.id, { message, read: r })
  return r
}

/**
 * Does `next` give the digest what `prev` gave, read or not: the same message but for the output
 * of results that are not errors (a stub, a cleared output), of which the digest only counts the
 * results. Anything else is read again.
 */
function sameReading(prev: Message, next: Message): boolean {
  if (
    prev.role !== next.role ||
    prev.injected !== next.injected ||
    prev.sidechain !== next.sidechain ||
    prev.summaryOf !== next.summaryOf ||
    prev.parts.length !== next.parts.length
  )
    return false
  for (let i = 0; i < next.parts.length; i++) {
    const a = prev.parts[i] as Part
    const b = next.parts[i] as Part
    if (a === b) continue
    if (a.kind !== 'tool_result' || b.kind !== 'tool_result') return false
    if (a.isError || b.isError || a.callId !== b.callId || a.name !== b.name) return false
  }
  return true
}

/** A stable hash of a message id (FNV-1a): where runs end does not depend on positions. */
function hashOf(id: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193)
  return h >>> 0
}

function foldRun(
  facts: readonly MessageFacts[],
  messages: readonly Message[],
  closed: boolean,
): RunFold {
  const userRequests: string[] = []
  const toolCounts = new Map<string, number>()
  const callNames = new Map<string, string>()
  const files: string[] = []
  const seenFiles = new Set<string>()
  const commands: string[] = []
  const errors: (string | Unnamed)[] = []
  const earlierSummaries: string[] = []
  let latest: string | null = null
  let toolCalls = 0
  let toolResults = 0
  for (let m = 0; m < facts.length; m++) {
    const f = facts[m] as MessageFacts
    if (f.summary !== null) earlierSummaries.push(f.summary)
    else if (f.request !== null) userRequests.push(f.request)
    else if (f.latest !== null) latest = f.latest
    toolCalls += f.calls
    toolResults += f.results
    const { items } = f
    for (let k = 0; k < items.length; k++) {
      const item = items[k] as Item
      if (item.kind === 'call') {
        toolCounts.set(item.name, (toolCounts.get(item.name) ?? 0) + 1)
        if (item.callId !== null) callNames.set(item.callId, item.name)
        addNew(files, seenFiles, item.files)
        if (item.command) commands.push(item.command)
      } else {
        // Named as the latest call with its id before it: in this run if it has one.
        const name = item.name ?? (item.callId !== null ? callNames.get(item.callId) : undefined)
        if (name === undefined && item.callId !== null && !callNames.has(item.callId))
          errors.push({ callId: item.callId, line: item.line })
        else errors.push(name ? `${name}: ${item.line}` : item.line)
      }
    }
  }
  return {
    messages,
    closed,
    facts,
    userRequests,
    toolCounts,
    callNames,
    files,
    commands,
    errors,
    earlierSummaries,
    latest,
    toolCalls,
    toolResults,
  }
}

/** The runs' folds one after another: what one fold over all their messages gives. */
function join(folds: readonly RunFold[], messages: number): Facts {
  const userRequests: string[] = []
  const toolCounts = new Map<string, number>()
  const files: string[] = []
  const seenFiles = new Set<string>()
  const commands: string[] = []
  const errors: string[] = []
  const earlierSummaries: string[] = []
  let latest: string | null = null
  let toolCalls = 0
  let toolResults = 0
  for (let r = 0; r < folds.length; r++) {
    const f = folds[r] as RunFold
    pushAll(userRequests, f.userRequests)
    for (const [name, n] of f.toolCounts) toolCounts.set(name, (toolCounts.get(name) ?? 0) + n)
    addNew(files, seenFiles, f.files)
    pushAll(commands, f.commands)
    for (const e of f.errors) {
      if (typeof e === 'string') errors.push(e)
      else {
        const name = nameBefore(folds, r, e.callId)
        errors.push(name ? `${name}: ${e.line}` : e.line)
      }
    }
    pushAll(earlierSummaries, f.earlierSummaries)
    if (f.latest !== null) latest = f.latest
    toolCalls += f.toolCalls
    toolResults += f.toolResults
  }
  return {
    messages,
    userRequests,
    toolCounts,
    toolCalls,
    toolResults,
    files,
    commands,
    errors,
    latest,
    earlierSummaries,
  }
}

/** Add to `files` the paths of `paths` not seen before, in order. */
function addNew(files: string[], seen: Set<string>, paths: readonly string[]): void {
  for (const path of paths)
    if (!seen.has(path)) {
      seen.add(path)
      files.push(path)
    }
}

/** The name of the latest call with id `callId` in the runs before run `r` (undefined: none). */
function nameBefore(folds: readonly RunFold[], r: number, callId: string): string | undefined {
  for (let q = r - 1; q >= 0; q--) {
    const name = (folds[q] as RunFold).callNames.get(callId)
    if (name !== undefined) return name
  }
  return undefined
}
