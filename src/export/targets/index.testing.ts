/**
 * Test fixtures for the export targets: configs built from a preset with a few changes, validated
 * the way a loaded file is (defaults filled), and a check that a warning's path names a place
 * that exists in the config.
 */
import { presetConfig, type PresetId } from '../../config/presets.ts'
import type { CompactionConfig, CompactionConfigInput } from '../../config/schema.ts'
import { validateConfig } from '../../config/validate.ts'
import { STRATEGY_REGISTRY } from '../../engine/strategies/index.ts'

/** Validate a config written by hand (throws with the issues if it is invalid). */
export function configOf(input: CompactionConfigInput): CompactionConfig {
  const result = validateConfig(input, STRATEGY_REGISTRY)
  if (!result.ok) throw new Error(result.issues.map((i) => `${i.path}: ${i.message}`).join('; '))
  return result.config
}

/** A preset as input, with `change` applied to a deep copy of it, validated again. */
export function variant(
  id: PresetId,
  change: (config: CompactionConfigInput & { pipeline: Record<string, unknown>[] }) => void,
): CompactionConfig {
  const copy = JSON.parse(JSON.stringify(presetConfig(id))) as CompactionConfigInput & {
    pipeline: Record<string, unknown>[]
  }
  change(copy)
  return configOf(copy)
}

/** The value at `pipeline[2].params.keep`-style path, or undefined when it does not exist. */
export function valueAt(config: CompactionConfig, path: string): unknown {
  let value: unknown = config
  for (const key of path.match(/[^.[\]]+/g) ?? []) {
    if (value === null || typeof value !== 'object') return undefined
    value = (value as Record<string, unknown>)[key]
  }
  return value
}
