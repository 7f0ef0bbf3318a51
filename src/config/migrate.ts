import { isObject } from '../formats/util.ts'
import { CONFIG_VERSION } from './schema.ts'

export type MigrationResult =
  { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly message: string }

/**
 * Bring a config of any published version up to the current one. Version 1 is the first
 * published format, so today this only checks the version; each later version adds one step here
 * (validate → migrate → restore).
 */
export function migrateConfig(raw: unknown): MigrationResult {
  if (!isObject(raw)) return { ok: false, message: 'expected a JSON object with "version"' }
  const version = raw.version
  if (version === undefined)
    return { ok: false, message: `missing "version" (the current version is ${CONFIG_VERSION})` }
  if (version === CONFIG_VERSION) return { ok: true, value: raw }
  if (typeof version === 'number' && version > CONFIG_VERSION) {
    return {
      ok: false,
      message: `version ${version} is newer than this tool understands (${CONFIG_VERSION}); update compaction-lab`,
    }
  }
  return {
    ok: false,
    message: `unknown version ${JSON.stringify(version)}; expected ${CONFIG_VERSION}`,
  }
}
