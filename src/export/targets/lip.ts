/**
 * llm-interactive-proxy (`matdev83/llm-interactive-proxy`): the `compaction:` section of its
 * `config.yaml` (engines.md §3). LIP has one mechanism — stale tool outputs superseded by a newer
 * result for the same resource become a stub — so only a `supersede-stale-results` step maps;
 * everything else in the pipeline is reported as lost.
 */
import type { CompactionConfig } from '../../config/schema.ts'
import { LIP_STUB_TEMPLATE } from '../../engine/strategies/supersede-stale-results/stub.ts'
import {
  activeSteps,
  duplicateStep,
  fallbackWarnings,
  exporterName,
  fmt,
  oneLine,
  paramWarning,
  protectionWarnings,
  tokenTrigger,
  unsupportedStep,
  usableTokens,
  type ActiveStep,
} from './index-helpers.ts'
import { compactable, fixNotes, fixWarnings, type LipCategory, type Lists } from './lip/fixes.ts'
import type { ExportTarget, LossyWarning, TargetOutput } from './types.ts'
import { pushAll } from '../../engine/arrays.ts'

const LABEL = 'llm-interactive-proxy'
const STRATEGY = 'supersede-stale-results'

/** The subset of the step's params this export reads (validated by the strategy's schema). */
interface SupersedeParams {
  readonly faithful: boolean
  readonly tokenThreshold: number
  readonly allowedCategories: readonly string[]
  readonly deniedCategories: readonly string[]
  readonly allowedTools: readonly string[]
  readonly deniedTools: readonly string[]
  readonly preserveLastN: number
  readonly maxStubsPerResource: number | null
  readonly minToolOutputTokens: number
  readonly stubTemplate: string
  readonly redactResourceIdentifiers: boolean
  readonly writesMakeStale: boolean
}

/**
 * LIP's enum value is `list_dir`; its docs say `list_directory`, which never matches. Our fixed
 * mode reads the docs' spelling as `list_dir`, so the export writes the value LIP understands.
 * Faithful mode keeps the spelling as written, bug included.
 */
function lipCategories(list: readonly string[], faithful: boolean): string[] {
  const mapped = faithful ? list : list.map((c) => (c === 'list_directory' ? 'list_dir' : c))
  return [...new Set(mapped)]
}

function yamlList(key: string, values: readonly string[]): string[] {
  if (values.length === 0) return [`  ${key}: []`]
  return [`  ${key}:`, ...values.map((v) => `    - ${v}`)]
}

/** When LIP runs: its `token_threshold` (LIP skips below it; 0 = every request). */
function threshold(s: ActiveStep, p: SupersedeParams, usable: number) {
  const trigger = tokenTrigger(s, usable, LABEL, 'compaction')
  // Faithful mode gates on tokenThreshold as well as the pipeline trigger: both must hold.
  const own = p.faithful ? p.tokenThreshold : 0
  return { value: Math.max(trigger.tokens ?? 0, own), warnings: trigger.warnings }
}

/** Declared by LIP but never read: honoured only by our fixed mode. */
function ignoredParams(s: ActiveStep, p: SupersedeParams): LossyWarning[] {
  if (p.faithful) return []
  const out: LossyWarning[] = []
  const ignored = 'declares this setting but never reads it'
  if (p.preserveLastN !== 1)
    out.push(
      paramWarning(
        s,
        'preserveLastN',
        LABEL,
        `${ignored} (preserve_last_n_results ${p.preserveLastN})`,
        'LIP keeps only the newest result per resource',
      ),
    )
  if (p.maxStubsPerResource !== 1)
    out.push(
      paramWarning(
        s,
        'maxStubsPerResource',
        LABEL,
        `${ignored} (max_stubs_per_resource ${p.maxStubsPerResource ?? 'unlimited'})`,
        'LIP stubs every older result of a resource and never drops one',
      ),
    )
  // Not a LIP setting at all: LIP keeps a read until the same resource is read again.
  if (p.writesMakeStale)
    out.push(
      paramWarning(
        s,
        'writesMakeStale',
        LABEL,
        'has no such setting (writesMakeStale: an edit of a file makes earlier reads of it stale)',
        'LIP keeps a read of an edited file until the file is read again',
      ),
    )
  if (p.stubTemplate !== LIP_STUB_TEMPLATE)
    out.push(
      paramWarning(
        s,
        'stubTemplate',
        LABEL,
        `${ignored} (stub_template)`,
        'LIP writes its built-in "[COMPACTED] Previous output for …" stub',
      ),
    )
  return out
}

function toolListWarnings(s: ActiveStep, p: SupersedeParams): LossyWarning[] {
  const out: LossyWarning[] = []
  for (const [name, list, instead] of [
    ['allowedTools', p.allowedTools, 'these tools follow their category'],
    ['deniedTools', p.deniedTools, 'these tools are compacted when their category allows it'],
  ] as const)
    if (list.length > 0)
      out.push(
        paramWarning(
          s,
          name,
          LABEL,
          `config.yaml has no per-tool lists (${list.join(', ')}); only categories`,
          instead,
        ),
      )
  return out
}

/**
 * LIP's per-output minimum (`min_tool_output_tokens_to_compact`, default 250 in
 * src/core/domain/configuration/compaction_config.py:77) exists in its dataclass but not in its
 * YAML schema: config/schemas/app_config.schema.yaml:800-819 (commit 0294adba) lists the
 * `compaction` keys with `additionalProperties: false`, and src/core/config/sources/yaml_file.py:57
 * validates the file against it before loading, so writing the key stops the proxy from starting.
 */
const LIP_MIN_TOOL_OUTPUT_TOKENS = 250

function minTokensWarning(s: ActiveStep, p: SupersedeParams): LossyWarning[] {
  if (p.minToolOutputTokens === LIP_MIN_TOOL_OUTPUT_TOKENS) return []
  return [
    paramWarning(
      s,
      'minToolOutputTokens',
      LABEL,
      `config.yaml cannot set the per-output minimum (${p.minToolOutputTokens}): the proxy's schema has no min_tool_output_tokens_to_compact key and refuses a file that has one`,
      `LIP keeps every stale output under its built-in ${LIP_MIN_TOOL_OUTPUT_TOKENS} tokens (len/4)`,
    ),
  ]
}

function section(p: SupersedeParams, tokenThreshold: number, maxTokens: number, lists: Lists) {
  const lines = [
    'compaction:',
    '  enabled: true',
    `  token_threshold: ${tokenThreshold}`,
    `  max_tokens: ${maxTokens}`,
    // Written out even when empty: with a `compaction:` section present LIP does not fall back
    // to its safe default lists, and an omitted list means "no list".
    ...yamlList('allowed_tool_categories', lists.allowed),
    ...yamlList('denied_tool_categories', lists.denied),
    `  preserve_last_n_results: ${p.preserveLastN}`,
  ]
  if (p.maxStubsPerResource !== null)
    lines.push(`  max_stubs_per_resource: ${p.maxStubsPerResource}`)
  if (p.stubTemplate !== LIP_STUB_TEMPLATE)
    lines.push(`  stub_template: ${JSON.stringify(p.stubTemplate)}`)
  lines.push(`  redact_resource_identifiers: ${p.redactResourceIdentifiers}`)
  return lines
}

const ALL_CATEGORIES: readonly LipCategory[] = [
  'file_read',
  'view_file',
  'file_write',
  'command_execution',
  'search',
  'list_dir',
  'test_execution',
  'other',
]

/** The one-line account of what LIP does with the section (engines.md §3). */
function describe(p: SupersedeParams, tokenThreshold: number, lists: Lists): string {
  const kinds = ALL_CATEGORIES.filter((c) => compactable(c, lists.allowed, lists.denied))
  const when =
    tokenThreshold > 0
      ? `once its chars/4 estimate of the request reaches ${fmt(tokenThreshold)} tokens`
      : 'on every request'
  if (kinds.length === 0)
    return `${LABEL} compacts nothing: every tool category is denied (compaction is on but has nothing it may touch).`
  return `${LABEL} replaces each older ${kinds.join('/')} tool output that a newer result for the same resource supersedes with a [COMPACTED] stub (outputs under ${LIP_MIN_TOOL_OUTPUT_TOKENS} estimated tokens stay) ${when}.`
}

function exportLip(config: CompactionConfig): TargetOutput {
  const warnings: LossyWarning[] = []
  const notes: string[] = []
  const usable = usableTokens(config)
  let chosen: ActiveStep | undefined
  for (const s of activeSteps(config)) {
    if (s.step.strategy !== STRATEGY) {
      warnings.push(unsupportedStep(s, LABEL, 'stubs tool results a newer result supersedes'))
    } else if (chosen) {
      warnings.push(duplicateStep(s, chosen, LABEL))
    } else chosen = s
  }
  let body: string[]
  let summary = `${LABEL} leaves every request as it is: compaction is disabled.`
  if (!chosen) {
    body = ['compaction:', '  enabled: false']
    notes.push('The config has no supersede-stale-results step, so compaction stays disabled.')
  } else {
    const p = chosen.params as unknown as SupersedeParams
    const lists: Lists = {
      allowed: lipCategories(p.allowedCategories, p.faithful),
      denied: lipCategories(p.deniedCategories, p.faithful),
    }
    const t = threshold(chosen, p, usable)
    pushAll(warnings, [
      ...t.warnings,
      ...minTokensWarning(chosen, p),
      ...ignoredParams(chosen, p),
      ...toolListWarnings(chosen, p),
    ])
    if (!p.faithful) {
      pushAll(warnings, fixWarnings(chosen, lists))
      pushAll(notes, fixNotes(lists))
    }
    body = section(p, t.value, usable, lists)
    summary = describe(p, t.value, lists)
    notes.push(
      `LIP estimates tokens as Σ len(content)/4 over the messages (tool-call arguments not counted), not with the ${config.tokenizer} tokenizer, so it may start compacting a little earlier or later than the lab shows; max_tokens (${fmt(usable)}, the usable window) only makes LIP log an overflow-risk warning.`,
      'LIP turns compaction off for the rest of a session once a request was routed to an openai-codex backend.',
    )
  }
  // With compaction disabled nothing is touched, so no protection can be broken.
  if (chosen)
    pushAll(warnings, protectionWarnings(config, LABEL, ['recentTurns', 'pinned', 'tools']))
  pushAll(warnings, fallbackWarnings(config, LABEL))
  return {
    target: 'lip',
    fileName: 'config.yaml',
    language: 'yaml',
    text: `${[
      `# ${summary}`,
      `# llm-interactive-proxy config.yaml — compaction section, exported by ${exporterName()} from config ${JSON.stringify(oneLine(config.name))}`,
      ...body,
    ].join('\n')}\n`,
    summary,
    warnings,
    notes,
  }
}

/** llm-interactive-proxy `config.yaml` `compaction:` section (reproduces the `lip` preset). */
export const lipTarget: ExportTarget = {
  id: 'lip',
  label: LABEL,
  preset: 'lip',
  export: exportLip,
}
