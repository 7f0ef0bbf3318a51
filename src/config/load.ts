import type { AnyStrategy } from '../engine/compaction/strategy.ts'
import { jsonErrorOffset, lineOfOffset } from '../formats/util.ts'
import { exporterName } from './exporter.ts'
import { migrateConfig } from './migrate.ts'
import { CONFIG_SCHEMA_URL, CONFIG_VERSION, type CompactionConfig } from './schema.ts'
import { validateConfig, type ConfigResult } from './validate.ts'
import { parseJson } from '../engine/json.ts'

/**
 * Read a config file's text: JSON with a line/offset on syntax errors, then migrate older
 * versions, then validate (file structure and every step's parameters).
 */
export function loadConfigText(
  text: string,
  registry: ReadonlyMap<string, AnyStrategy>,
): ConfigResult {
  let raw: unknown
  try {
    raw = parseJson(text)
  } catch (error) {
    const offset = jsonErrorOffset(text, error)
    return {
      ok: false,
      issues: [
        {
          path: `line ${lineOfOffset(text, offset)}, offset ${offset}`,
          message: `not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
        },
      ],
    }
  }
  const migrated = migrateConfig(raw)
  if (!migrated.ok) return { ok: false, issues: [{ path: 'version', message: migrated.message }] }
  return validateConfig(migrated.value, registry)
}

/**
 * Our own export: the validated config, defaults filled, with `$schema` (the schema the app
 * serves), `version` and `exporter` (who wrote it: this program, whoever wrote the input) first.
 */
export function serializeConfig(config: CompactionConfig): string {
  const { $schema: _s, version: _v, exporter: _e, ...rest } = config
  const head = { $schema: CONFIG_SCHEMA_URL, version: CONFIG_VERSION, exporter: exporterName() }
  return JSON.stringify({ ...head, ...rest }, null, 2) + '\n'
}
