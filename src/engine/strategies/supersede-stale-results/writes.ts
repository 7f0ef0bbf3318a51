/**
 * Which files a tool call writes: an edit makes every earlier read of that file stale (what the
 * read showed is no longer what the file holds). Recognised: `apply_patch` (Codex; as its own
 * tool, or as `apply_patch` run through a shell tool) by its `*** Update/Add/Delete File:` and
 * `*** Move to:` headers, Claude Code `Edit`/`Write`/`MultiEdit`/`NotebookEdit`, opencode
 * `edit`/`write`, Gemini CLI `replace`/`write_file`, and `str_replace_editor` (Anthropic/OpenHands/SWE-agent) except its `view`.
 */
import { normalizeToolName, stripMcpPrefix } from './categories.ts'
import { normalizePathFixed } from './paths.ts'

const PATCH_HEADER = /^\*\*\* (?:Update File|Add File|Delete File|Move to): *(.+?)\s*$/gm

/** Paths named by an `apply_patch` patch text (empty when it is not one). */
export function patchPaths(text: string): string[] {
  if (!text.includes('*** Begin Patch')) return []
  const out: string[] = []
  for (const m of text.matchAll(PATCH_HEADER)) out.push(m[1] as string)
  return out
}

const EDIT_TOOLS = new Set([
  'edit',
  'write',
  'multiedit',
  'notebookedit',
  'editfile',
  'writefile',
  'createfile',
  'replace', // Gemini CLI's edit tool
])
const EDITOR_TOOLS = new Set(['strreplaceeditor', 'strreplacebasededittool'])
const EDITOR_WRITES = new Set(['create', 'str_replace', 'insert', 'undo_edit'])
const PATH_PARAMS = ['file_path', 'filePath', 'path', 'notebook_path', 'target_file']

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null)

/**
 * Normalised paths the call writes, or an empty list. `args` is the parsed argument object, or
 * the raw text when the arguments are not a JSON object (Codex custom tools send the patch raw).
 */
export function writtenPaths(
  tool: string,
  args: Readonly<Record<string, unknown>> | string,
  cwd?: string,
): string[] {
  const norm = (p: string) => normalizePathFixed(p, cwd)
  const name = normalizeToolName(stripMcpPrefix(tool))
  if (typeof args === 'string') return name === 'applypatch' ? patchPaths(args).map(norm) : []
  const where = str(args['workdir']) ?? str(args['cwd'])
  const base = where ? norm(where) : cwd
  // A patch may arrive as apply_patch's `input`/`patch`, or as a shell argv/heredoc.
  for (const key of ['input', 'patch', 'cmd', 'command']) {
    const v = args[key]
    const text = typeof v === 'string' ? v : Array.isArray(v) ? v.join('\n') : null
    if (text && /(^|\s|")apply_patch\b|\*\*\* Begin Patch/.test(text) && text.includes('*** '))
      return patchPaths(text).map((p) => normalizePathFixed(p, base))
  }
  if (EDIT_TOOLS.has(name)) {
    for (const k of PATH_PARAMS) {
      const p = str(args[k])
      if (p) return [norm(p)]
    }
    return []
  }
  if (EDITOR_TOOLS.has(name)) {
    const command = str(args['command'])
    const p = str(args['path'])
    return command && p && EDITOR_WRITES.has(command) ? [norm(p)] : []
  }
  return []
}
