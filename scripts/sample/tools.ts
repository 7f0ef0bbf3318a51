/**
 * Builders for Claude Code tool calls whose results come from the virtual project, shaped like the
 * CLI writes them: what the model sees (`content`) plus the richer `toolUseResult` metadata.
 */
import type { Rng } from './prng.ts'
import type { ReadRange, Vfs } from './vfs.ts'
import type { ToolCall } from './session.ts'

// Our own wording of the reminder the CLI appends to file reads (it repeats on every read, which
// is part of what compaction can reclaim).
export const READ_REMINDER =
  '\n\n<system-reminder>\nWhen you read a file, consider whether it could be malicious. If so, ' +
  'do not improve or extend it; analysing it and answering questions about it is fine.\n</system-reminder>\n'

export function readCall(vfs: Vfs, path: string, range: ReadRange = {}): ToolCall {
  const r = vfs.read(path, range)
  const input: Record<string, unknown> = { file_path: vfs.abs(path) }
  if (range.offset !== undefined) input.offset = range.offset
  if (range.limit !== undefined) input.limit = range.limit
  return {
    name: 'Read',
    input,
    outcome: {
      content: r.numbered + READ_REMINDER,
      isError: false,
      toolUseResult: {
        type: 'text',
        file: {
          filePath: vfs.abs(path),
          content: r.raw,
          numLines: r.numLines,
          startLine: r.startLine,
          totalLines: r.totalLines,
        },
      },
      ms: 12 + r.numLines,
    },
  }
}

/** A unified-diff hunk (3 lines of context) for `structuredPatch`. */
function hunk(before: string, oldStr: string, newStr: string): Record<string, unknown> {
  const at = before.indexOf(oldStr)
  const startLine = before.slice(0, at).split('\n').length
  const all = before.split('\n')
  const oldLines = oldStr.split('\n')
  const newLines = newStr.split('\n')
  const ctxFrom = Math.max(1, startLine - 3)
  const ctxTo = Math.min(all.length, startLine + oldLines.length - 1 + 3)
  const pre = all.slice(ctxFrom - 1, startLine - 1).map((l) => ' ' + l)
  const post = all.slice(startLine - 1 + oldLines.length, ctxTo).map((l) => ' ' + l)
  return {
    oldStart: ctxFrom,
    oldLines: ctxTo - ctxFrom + 1,
    newStart: ctxFrom,
    newLines: ctxTo - ctxFrom + 1 - oldLines.length + newLines.length,
    lines: [...pre, ...oldLines.map((l) => '-' + l), ...newLines.map((l) => '+' + l), ...post],
  }
}

/** Applies the edit to the virtual file; a missing `oldStr` yields the CLI's error result. */
export function editCall(vfs: Vfs, path: string, oldStr: string, newStr: string): ToolCall {
  const input = { file_path: vfs.abs(path), old_string: oldStr, new_string: newStr }
  const before = vfs.get(path)
  if (!vfs.replace(path, oldStr, newStr)) {
    const msg = `String to replace not found in file.\nString: ${oldStr}`
    return {
      name: 'Edit',
      input,
      outcome: {
        content: `<tool_use_error>${msg}</tool_use_error>`,
        isError: true,
        toolUseResult: `Error: ${msg}`,
        ms: 9,
      },
    }
  }
  const snippet = vfs.snippetAround(path, newStr.trim().length > 0 ? newStr.trim() : oldStr)
  return {
    name: 'Edit',
    input,
    outcome: {
      content:
        `The file ${vfs.abs(path)} has been updated. Here's the result of running \`cat -n\` on a ` +
        `snippet of the edited file:\n${snippet}`,
      isError: false,
      toolUseResult: {
        filePath: vfs.abs(path),
        oldString: oldStr,
        newString: newStr,
        originalFile: before,
        structuredPatch: [hunk(before, oldStr, newStr)],
        userModified: false,
        replaceAll: false,
      },
      ms: 30,
    },
  }
}

export function writeCall(vfs: Vfs, path: string, content: string): ToolCall {
  const existed = vfs.write(path, content)
  const abs = vfs.abs(path)
  return {
    name: 'Write',
    input: { file_path: abs, content },
    outcome: {
      content: existed
        ? `The file ${abs} has been updated. Here's the result of running \`cat -n\` on a snippet of the edited file:\n${vfs.read(path, { limit: 12 }).numbered}`
        : `File created successfully at: ${abs}`,
      isError: false,
      toolUseResult: {
        type: existed ? 'update' : 'create',
        filePath: abs,
        content,
        structuredPatch: [],
      },
      ms: 25,
    },
  }
}

export interface GrepOptions {
  readonly path?: string
  readonly glob?: string
  readonly mode?: 'content' | 'files_with_matches' | 'count'
}

export function grepCall(vfs: Vfs, pattern: string, opts: GrepOptions = {}): ToolCall {
  const mode = opts.mode ?? 'files_with_matches'
  const hits = vfs.grep(pattern, opts.path ?? '', opts.glob)
  const files = [...new Set(hits.map((h) => h.path))]
  const input: Record<string, unknown> = { pattern }
  if (opts.path) input.path = vfs.abs(opts.path)
  if (opts.glob) input.glob = opts.glob
  input.output_mode = mode
  if (mode === 'content') input['-n'] = true
  let content: string
  if (hits.length === 0) content = 'No matches found'
  else if (mode === 'content') content = hits.map((h) => `${h.path}:${h.line}:${h.text}`).join('\n')
  else if (mode === 'count') {
    content = files.map((f) => `${f}:${hits.filter((h) => h.path === f).length}`).join('\n')
  } else
    content = `Found ${files.length} file${files.length === 1 ? '' : 's'}\n${files.map((f) => vfs.abs(f)).join('\n')}`
  const toolUseResult: Record<string, unknown> = {
    mode,
    numFiles: files.length,
    filenames: files.map((f) => vfs.abs(f)),
  }
  if (mode === 'content') {
    toolUseResult.content = content
    toolUseResult.numLines = hits.length
  }
  return {
    name: 'Grep',
    input,
    outcome: { content, isError: false, toolUseResult, ms: 40 + hits.length },
  }
}

export function globCall(vfs: Vfs, pattern: string, under?: string): ToolCall {
  const found = vfs.glob(pattern, under).map((p) => vfs.abs(p))
  const input: Record<string, unknown> = { pattern }
  if (under) input.path = vfs.abs(under)
  return {
    name: 'Glob',
    input,
    outcome: {
      content: found.length ? found.join('\n') : 'No files found',
      isError: false,
      toolUseResult: {
        filenames: found,
        durationMs: 20 + found.length * 3,
        numFiles: found.length,
        truncated: false,
      },
      ms: 25 + found.length * 3,
    },
  }
}

export interface BashOptions {
  readonly stderr?: string
  readonly exitCode?: number
  readonly ms?: number
}

export function bashCall(
  command: string,
  description: string,
  stdout: string,
  opts: BashOptions = {},
): ToolCall {
  const stderr = opts.stderr ?? ''
  const combined = [stdout, stderr].filter((s) => s.length > 0).join('\n')
  const failed = (opts.exitCode ?? 0) !== 0
  return {
    name: 'Bash',
    input: { command, description },
    outcome: failed
      ? {
          content: `Exit code ${opts.exitCode}\n${combined}`,
          isError: true,
          toolUseResult: `Error: Exit code ${opts.exitCode}\n${combined}`,
          ms: opts.ms ?? 1_200,
        }
      : {
          content: combined,
          isError: false,
          toolUseResult: { stdout, stderr, interrupted: false, isImage: false },
          ms: opts.ms ?? 400,
        },
  }
}

export type TodoStatus = 'pending' | 'in_progress' | 'completed'
export interface Todo {
  readonly content: string
  readonly status: TodoStatus
  readonly activeForm: string
}

/** Keeps the previous list so `toolUseResult.oldTodos` is right, as the CLI records it. */
export class TodoList {
  private current: Todo[] = []

  call(items: ReadonlyArray<readonly [string, TodoStatus, string]>): ToolCall {
    const todos = items.map(([content, status, activeForm]) => ({ content, status, activeForm }))
    const oldTodos = this.current
    this.current = todos
    return {
      name: 'TodoWrite',
      input: { todos },
      outcome: {
        content:
          'Todo list updated. Keep using it to track progress and carry on with the current task.',
        isError: false,
        toolUseResult: { oldTodos, newTodos: todos },
        ms: 8,
      },
    }
  }
}

/** The Skill tool: the result only acknowledges; the SKILL.md body arrives as an isMeta line. */
export function skillCall(vfs: Vfs, skill: string): ToolCall {
  const dir = `.claude/skills/${skill}`
  const body = vfs.get(`${dir}/SKILL.md`).replace(/^---\n[\s\S]*?\n---\n\n?/, '')
  return {
    name: 'Skill',
    input: { skill },
    outcome: {
      content: `Launching skill: ${skill}`,
      isError: false,
      toolUseResult: { success: true, commandName: skill },
      ms: 15,
      metaFollowUp: `Base directory for this skill: ${vfs.abs(dir)}\n\n${body}`,
    },
  }
}

/** Jittered wall time for long commands, so repeated runs don't share identical durations. */
export function jitter(rng: Rng, ms: number): number {
  return Math.round(ms * (0.8 + rng.next() * 0.4))
}
