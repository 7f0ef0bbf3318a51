/**
 * What llm-interactive-proxy does differently from our fixed mode (`faithful: false`) of
 * `supersede-stale-results` (engines.md §3). Some differences only bite because of a choice in
 * the config — compactable commands, a compactable `other` category — and LIP's own preset avoids
 * them: those are warnings. The rest are in LIP's runtime whatever its config says (the `lip`
 * preset has them too), so they are notes shown next to the export rather than lossy warnings.
 */
import { warning, type ActiveStep } from '../index-helpers.ts'
import type { LossyWarning } from '../types.ts'

export type LipCategory =
  | 'file_read'
  | 'view_file'
  | 'file_write'
  | 'command_execution'
  | 'search'
  | 'list_dir'
  | 'test_execution'
  | 'other'

/** LIP's category test: deny wins; an empty allow list allows every category not denied. */
export function compactable(
  category: LipCategory,
  allowed: readonly string[],
  denied: readonly string[],
): boolean {
  if (denied.includes(category)) return false
  return allowed.length === 0 || allowed.includes(category)
}

export interface Lists {
  readonly allowed: readonly string[]
  readonly denied: readonly string[]
}

/** Warnings for fixes LIP would undo because the config makes the bug reachable. */
export function fixWarnings(s: ActiveStep, lists: Lists): LossyWarning[] {
  const can = (c: LipCategory) => compactable(c, lists.allowed, lists.denied)
  const out: LossyWarning[] = []
  if (can('command_execution'))
    out.push(
      warning(
        `${s.path}.params.faithful`,
        'LIP keys a command result by the program name only (`git status` and `git log` are one resource), so with command_execution compactable it stubs outputs of different commands; our fixed mode keys by the whole command line.',
        'LIP stubs every older result of the same program; deny command_execution to avoid it',
      ),
    )
  if (can('other') && (!can('file_write') || !can('command_execution')))
    out.push(
      warning(
        `${s.path}.params.faithful`,
        'LIP files tool names outside its own table (Claude Code Edit/Write, MCP tools such as mcp__fs__write_file) under `other`, so with `other` compactable their results can be stubbed although writes or commands are denied; our fixed mode recognises them.',
        'LIP compacts those tools as `other`; leave `other` off the allow list to avoid it',
      ),
    )
  return out
}

/** Notes on fixes LIP lacks whatever its config (present in LIP's own preset too). */
export function fixNotes(lists: Lists): string[] {
  const can = (c: LipCategory) => compactable(c, lists.allowed, lists.denied)
  const notes = [
    'LIP normalises paths less than the lab (no ./ or .. resolution, no cwd, no case folding beyond the drive letter), so differently spelled paths to one file do not supersede each other, and a later full read does not supersede earlier ranged reads. Set `faithful: true` on the step to preview exactly what LIP does.',
  ]
  if (can('search'))
    notes.push(
      'LIP keys a search that names a path by the path alone (`grep foo src` and `grep bar src` are one resource), so an older search for a different pattern in the same place is stubbed; the lab keys by pattern and path.',
    )
  if (can('view_file'))
    notes.push(
      'LIP adds the read range to the resource only for file_read tools, so view_file reads of different line ranges of one file supersede each other.',
    )
  return notes
}
