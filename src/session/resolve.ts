/**
 * Resolve: a config as the user gives it (our versioned JSON as text or an object, or a preset
 * id) → a validated `CompactionConfig`, or every issue with its path. The one entry point for
 * configs of the app and the CLI alike.
 */
import { loadConfigText } from '../config/load.ts'
import { migrateConfig } from '../config/migrate.ts'
import { isPresetId, PRESET_IDS, presetConfig } from '../config/presets.ts'
import type { CompactionConfig } from '../config/schema.ts'
import { validateConfig, type ConfigIssue } from '../config/validate.ts'
import { STRATEGY_REGISTRY } from '../engine/strategies/index.ts'

export type Resolved =
  | { readonly ok: true; readonly config: CompactionConfig }
  | { readonly ok: false; readonly issues: readonly ConfigIssue[] }

/** Validate the config (JSON text, a config object, or a preset id) against the registry. */
export function resolveConfig(config: unknown, preset: string | undefined): Resolved {
  if (preset !== undefined) {
    if (!isPresetId(preset)) {
      return {
        ok: false,
        issues: [
          {
            path: 'preset',
            message: `unknown preset "${preset}"; one of: ${PRESET_IDS.join(', ')}`,
          },
        ],
      }
    }
    return { ok: true, config: presetConfig(preset) }
  }
  if (typeof config === 'string') return loadConfigText(config, STRATEGY_REGISTRY)
  const migrated = migrateConfig(config)
  if (!migrated.ok) return { ok: false, issues: [{ path: 'version', message: migrated.message }] }
  return validateConfig(migrated.value, STRATEGY_REGISTRY)
}
