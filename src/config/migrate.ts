import { isObject } from '../formats/util.ts'
import { CONFIG_VERSION } from './schema.ts'

export type MigrationResult =
  { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly message: string }

type Json = Record<string, unknown>

/**
 * Version 0 is the pre-release draft shape (configs written before the format was published):
 * the window was flat (`contextWindow`, `reservedOutput`, `buffer` at the top level), the
 * pipeline was called `steps`, a step named its strategy with `use` and switched off with
 * `disabled: true`. Everything else already had its version-1 name.
 */
function fromV0(raw: Json): MigrationResult {
  const { contextWindow, reservedOutput, buffer, steps, version: _v, ...rest } = raw
  if (!Array.isArray(steps))
    return { ok: false, message: 'version 0: expected "steps" to be a list' }
  const pipeline = steps.map((step: unknown) => {
    if (!isObject(step)) return step
    const { use, disabled, ...stepRest } = step
    return {
      ...(use !== undefined ? { strategy: use } : {}),
      ...(disabled !== undefined ? { enabled: disabled !== true } : {}),
      ...stepRest,
    }
  })
  return {
    ok: true,
    value: {
      ...rest,
      version: 1,
      window: {
        contextTokens: contextWindow,
        reservedOutput,
        ...(buffer !== undefined ? { buffer } : {}),
      },
      pipeline,
    },
  }
}

/** One step per published version: `MIGRATIONS[v]` turns version v into version v + 1. */
const MIGRATIONS: Readonly<Record<number, (raw: Json) => MigrationResult>> = { 0: fromV0 }

/**
 * Bring a config of any known version up to the current one, one version at a time; the result
 * is then validated as usual, so a migrated config gets the same path-named errors.
 */
export function migrateConfig(raw: unknown): MigrationResult {
  if (!isObject(raw)) return { ok: false, message: 'expected a JSON object with "version"' }
  let current: Json = raw
  for (;;) {
    const version = current.version
    if (version === undefined)
      return { ok: false, message: `missing "version" (the current version is ${CONFIG_VERSION})` }
    if (version === CONFIG_VERSION) return { ok: true, value: current }
    if (typeof version === 'number' && version > CONFIG_VERSION) {
      return {
        ok: false,
        message: `version ${version} is newer than this tool understands (${CONFIG_VERSION}); update compaction-lab`,
      }
    }
    const step = typeof version === 'number' ? MIGRATIONS[version] : undefined
    if (!step) {
      return {
        ok: false,
        message: `unknown version ${JSON.stringify(version)}; expected ${CONFIG_VERSION}`,
      }
    }
    const next = step(current)
    if (!next.ok || !isObject(next.value)) return next
    current = next.value
  }
}
