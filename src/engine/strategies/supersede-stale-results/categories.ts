/**
 * Tool categories of llm-interactive-proxy (LIP `src/core/domain/compaction.py`) and the
 * allow/deny policy (`CompactionConfig.is_tool_category_allowed`, `CompactionPolicies`).
 *
 * LIP normalises a tool name by lower-casing it and deleting `_` and `-`, then looks it up
 * *exactly* in one table (no substring matching). The fixed mode keeps that table and adds the
 * names real agents use (Claude Code `Grep`/`Glob`/`Edit`/`Write`, Gemini CLI, Codex, opencode)
 * and strips an `mcp__<server>__` prefix first.
 */

export const CATEGORIES = [
  'file_read',
  'view_file',
  'file_write',
  'command_execution',
  'search',
  'list_dir',
  'test_execution',
  'other',
] as const
export type ToolCategory = (typeof CATEGORIES)[number]

/** What a config may name: LIP's values plus `list_directory`, the spelling its docs use. */
export const CATEGORY_INPUTS = [...CATEGORIES, 'list_directory'] as const
export type CategoryInput = (typeof CATEGORY_INPUTS)[number]

/** LIP's table, in its order (its dict keeps the last category for a duplicate key). */
const LIP_TABLE: readonly (readonly [ToolCategory, readonly string[]])[] = [
  ['view_file', ['view_file', 'view_file_outline']],
  [
    'file_read',
    [
      'read_file',
      'cat',
      'read',
      'get_file_contents',
      'file_read',
      'view_code_item',
      'search_in_file',
    ],
  ],
  [
    'file_write',
    [
      'write_file',
      'write_to_file',
      'replace_file_content',
      'multi_replace_file_content',
      'apply_diff',
      'apply_patch',
      'edit_file',
      'create_file',
    ],
  ],
  [
    'command_execution',
    [
      'run_command',
      'execute_command',
      'bash',
      'shell',
      'terminal',
      'command_status',
      'send_command_input',
    ],
  ],
  ['search', ['grep_search', 'codebase_search', 'find_by_name', 'search', 'ripgrep', 'find']],
  ['list_dir', ['list_dir', 'ls', 'directory', 'list_directory']],
  [
    'test_execution',
    ['run_pytest', 'run_tests', 'test', 'pytest', 'unittest', 'jest', 'mocha', 'npm_test'],
  ],
]

/** Names the fixed mode adds (all already normalised): the tools of today's coding agents. */
const EXTRA_TABLE: readonly (readonly [ToolCategory, readonly string[]])[] = [
  ['file_read', ['readfile', 'notebookread', 'readmanyfiles']],
  ['search', ['grep', 'glob', 'rg', 'searchfilecontent', 'findfiles', 'filesearch', 'codesearch']],
  ['list_dir', ['listdir', 'listfiles', 'readfolder', 'list']],
  [
    'file_write',
    ['edit', 'write', 'multiedit', 'notebookedit', 'replace', 'strreplace', 'patch', 'createfile'],
  ],
  [
    'command_execution',
    [
      'runshellcommand',
      'localshell',
      'exec',
      'execcommand',
      'powershell',
      'runterminalcmd',
      'executebash',
    ],
  ],
]

/** LIP's normalisation: lower-case, then delete `_` and `-`. */
export const normalizeToolName = (name: string): string => name.toLowerCase().replace(/[_-]/g, '')

function buildTable(
  tables: readonly (readonly (readonly [ToolCategory, readonly string[]])[])[],
): Map<string, ToolCategory> {
  const map = new Map<string, ToolCategory>()
  for (const table of tables)
    for (const [category, names] of table)
      for (const n of names) map.set(normalizeToolName(n), category)
  return map
}

const LIP_LOOKUP = buildTable([LIP_TABLE])
const FIXED_LOOKUP = buildTable([LIP_TABLE, EXTRA_TABLE])

/** LIP `categorize_tool`: exact normalised lookup, everything else is `other`. */
export function categorizeFaithful(name: string): ToolCategory {
  return LIP_LOOKUP.get(normalizeToolName(name)) ?? 'other'
}

/** Tool name without an `mcp__<server>__` prefix (Claude Code's MCP naming). */
export function stripMcpPrefix(name: string): string {
  if (!name.toLowerCase().startsWith('mcp__')) return name
  const rest = name.slice(5)
  const at = rest.indexOf('__')
  return at > 0 && at + 2 < rest.length ? rest.slice(at + 2) : name
}

/** Fixed categorisation: MCP prefix stripped, LIP's table plus today's agent tool names. */
export function categorizeFixed(name: string): ToolCategory {
  return FIXED_LOOKUP.get(normalizeToolName(stripMcpPrefix(name))) ?? 'other'
}

export interface PolicyParams {
  readonly allowedCategories: readonly CategoryInput[]
  readonly deniedCategories: readonly CategoryInput[]
  readonly allowedTools: readonly string[]
  readonly deniedTools: readonly string[]
}

export interface PolicyVerdict {
  readonly allowed: boolean
  /** Why, in words ("category `search` is allowed"). */
  readonly why: string
}

/**
 * LIP `CompactionPolicies.should_compact_tool`: tool deny list, then tool allow list, then the
 * category lists (deny wins; an empty allow list allows every category not denied). Faithful:
 * tool names match lower-cased, category entries match LIP's values only (`list_directory`
 * never matches `list_dir`). Fixed: tool names also match in normalised form (`Read` ~
 * `read`, `mcp__fs__read_file` ~ `read_file`) and `list_directory` means `list_dir`.
 */
/** Verdicts depend only on the tool, its category and the (stable, parsed) params: memoised. */
type VerdictMemo = Map<ToolCategory, Map<string, PolicyVerdict>>
/** Per params object: [fixed, faithful] → category → tool → verdict. */
const verdicts = new WeakMap<PolicyParams, readonly [VerdictMemo, VerdictMemo]>()

export function policyVerdict(
  tool: string,
  category: ToolCategory,
  params: PolicyParams,
  faithful: boolean,
): PolicyVerdict {
  // Nested maps, not a joined string key: replay asks this for every stale result at every call.
  let modes = verdicts.get(params)
  if (!modes) {
    modes = [new Map(), new Map()]
    verdicts.set(params, modes)
  }
  const byCategory = modes[faithful ? 1 : 0]
  let byTool = byCategory.get(category)
  if (!byTool) {
    byTool = new Map()
    byCategory.set(category, byTool)
  }
  let verdict = byTool.get(tool)
  if (!verdict) {
    verdict = computeVerdict(tool, category, params, faithful)
    byTool.set(tool, verdict)
  }
  return verdict
}

function computeVerdict(
  tool: string,
  category: ToolCategory,
  params: PolicyParams,
  faithful: boolean,
): PolicyVerdict {
  const forms = faithful
    ? [tool.toLowerCase()]
    : [tool.toLowerCase(), normalizeToolName(tool), normalizeToolName(stripMcpPrefix(tool))]
  const toolIn = (list: readonly string[]) =>
    list.some((t) =>
      (faithful ? [t.toLowerCase()] : [t.toLowerCase(), normalizeToolName(t)]).some((f) =>
        forms.includes(f),
      ),
    )
  if (toolIn(params.deniedTools))
    return { allowed: false, why: `tool \`${tool}\` is on deniedTools` }
  if (toolIn(params.allowedTools))
    return { allowed: true, why: `tool \`${tool}\` is on allowedTools` }
  const alias = (c: CategoryInput): string => (!faithful && c === 'list_directory' ? 'list_dir' : c)
  const denied = params.deniedCategories.map(alias)
  const allowed = params.allowedCategories.map(alias)
  const aliasNote = (list: readonly CategoryInput[]) =>
    !faithful &&
    category === 'list_dir' &&
    list.includes('list_directory') &&
    !list.includes('list_dir')
      ? ' (config entry `list_directory` read as `list_dir`)'
      : ''
  if (denied.includes(category))
    return {
      allowed: false,
      why: `category \`${category}\` is denied${aliasNote(params.deniedCategories)}`,
    }
  if (allowed.length === 0)
    return { allowed: true, why: 'every category is allowed (empty allow list)' }
  if (allowed.includes(category))
    return {
      allowed: true,
      why: `category \`${category}\` is allowed${aliasNote(params.allowedCategories)}`,
    }
  return { allowed: false, why: `category \`${category}\` is not on the allow list` }
}
