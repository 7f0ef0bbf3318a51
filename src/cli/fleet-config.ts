import { readFile } from 'node:fs/promises'
import { PRESET_IDS, presetConfig, type PresetId } from '../config/presets.ts'
import type { FleetConfig } from '../fleet/evaluate.ts'
import { resolveConfig } from '../session/resolve.ts'
import { flagString, UsageError, type ParsedArgs } from './args.ts'

/**
 * `--config C | --preset P` → the validated config, as `compact` reads them (the same loader and
 * presets). A usage mistake throws `UsageError`; an unreadable or invalid file is `{message}`.
 */
export async function fleetConfigFrom(
  args: ParsedArgs,
  usage: string,
): Promise<FleetConfig | { readonly message: string }> {
  const configPath = flagString(args, 'config')
  const presetId = flagString(args, 'preset')
  if (!configPath === !presetId)
    throw new UsageError(`give exactly one of --config or --preset\n${usage}`)
  if (presetId !== undefined) {
    if (!(PRESET_IDS as readonly string[]).includes(presetId))
      throw new UsageError(`unknown --preset ${presetId}; one of: ${PRESET_IDS.join(', ')}`)
    return { config: presetConfig(presetId as PresetId), preset: presetId }
  }
  let text: string
  try {
    text = await readFile(configPath as string, 'utf8')
  } catch (error) {
    return {
      message: `${configPath}: cannot read: ${error instanceof Error ? error.message : String(error)}`,
    }
  }
  // Text goes through the config loader (migrate, validate), as `compact --config` does.
  const loaded = resolveConfig(text, undefined)
  if (!loaded.ok)
    return {
      message: `${configPath}: invalid config:\n${loaded.issues.map((i) => `  ${i.path}: ${i.message}`).join('\n')}`,
    }
  return { config: loaded.config }
}
