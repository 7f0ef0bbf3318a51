import type { JsonlLine } from '../types.ts'
import { isObject, str } from '../util.ts'

/** The sub-agent id a file name gives (`agent-<id>.jsonl`: every line of it is that agent's). */
export function fileAgentOf(fileName: string | undefined): string | undefined {
  return /(?:^|[/\\])agent-([^/\\]+)\.jsonl$/.exec(fileName ?? '')?.[1]
}

/**
 * The thread of every line: undefined for the main agent, else the sidechain label — the line's
 * `agentId` (or the file's agent), or for inline sidechains without an id `sidechain`,
 * `sidechain #2`, … (every root line, no parent, starts a new sub-agent run with a context of
 * its own). Only message lines (`user`/`assistant` with an object `message`) carry a thread; the
 * parser labels messages with it and the item list splits the file by it.
 */
export function threadsOf(
  lines: readonly JsonlLine[],
  fileName: string | undefined,
): (string | undefined)[] {
  const fileAgent = fileAgentOf(fileName)
  let runs = 0
  return lines.map((l) => {
    const v = l.value
    if (!isObject(v) || (v.type !== 'user' && v.type !== 'assistant') || !isObject(v.message))
      return undefined
    const agentId = str(v.agentId) ?? fileAgent
    if (agentId === undefined && v.isSidechain === true && v.parentUuid === null) runs++
    return (
      agentId ??
      (v.isSidechain === true ? (runs > 1 ? `sidechain #${runs}` : 'sidechain') : undefined)
    )
  })
}
