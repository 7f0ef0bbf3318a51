/**
 * llm-interactive-proxy's `compaction:` block as its own YAML schema allows it. Source:
 * github.com/matdev83/llm-interactive-proxy, commit 0294adba (2026-08-21, package version 0.1.0),
 * config/schemas/app_config.schema.yaml lines 800-819 (`compaction`, `additionalProperties:
 * false`), validated with Draft 7 by src/core/config/yaml_validation.py before the proxy loads the
 * file (src/core/config/sources/yaml_file.py:57), so any other key stops it from starting. The
 * category values are the ToolCategory enum, src/core/domain/compaction.py:22-34.
 */
export const LIP_SOURCE =
  'matdev83/llm-interactive-proxy@0294adba config/schemas/app_config.schema.yaml:800-819'

export type LipKeyType = 'boolean' | 'integer>=0' | 'string' | 'string[]'

/** Every key the schema's `compaction` object allows, with its type and minimum. */
export const LIP_COMPACTION_KEYS: Readonly<Record<string, LipKeyType>> = {
  enabled: 'boolean',
  token_threshold: 'integer>=0',
  max_tokens: 'integer>=0',
  allowed_tool_categories: 'string[]',
  denied_tool_categories: 'string[]',
  max_stubs_per_resource: 'integer>=0',
  preserve_last_n_results: 'integer>=0',
  stub_template: 'string',
  redact_resource_identifiers: 'boolean',
}

/**
 * ToolCategory values. The schema types the lists as plain strings, so an unknown value loads;
 * it then matches no tool, which is why the exporter must write these spellings.
 */
export const LIP_CATEGORIES: readonly string[] = [
  'file_read',
  'file_write',
  'command_execution',
  'search',
  'list_dir',
  'view_file',
  'test_execution',
  'other',
]
