/**
 * Several files picked or dropped together (e.g. a Claude Code session and its subagent
 * transcripts). Each is its own context — a subagent runs with its own window — so they are
 * analysed one at a time and the user switches between them; nothing is merged behind their back.
 */

/** Claude Code subagent transcripts: `agent-<id>.jsonl`, or anything under `subagents/`. */
export function isSubagentFile(name: string): boolean {
  const base = name.split('/').pop() ?? name
  return /^agent-[^/]+\.jsonl$/i.test(base) || /(^|\/)subagents\//i.test(name)
}

/** The main session first, subagent files after it; otherwise the order the user gave. */
export function orderFiles<T extends { readonly name: string }>(files: readonly T[]): T[] {
  const main = files.filter((f) => !isSubagentFile(f.name))
  const agents = files.filter((f) => isSubagentFile(f.name))
  return [...main, ...agents]
}
