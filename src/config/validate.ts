import type { z } from 'zod'
import type { AnyStrategy } from '../engine/compaction/strategy.ts'
import type { EngineConfig } from '../engine/compaction/types.ts'
import { configSchema, type CompactionConfig } from './schema.ts'
import { pushAll } from '../engine/arrays.ts'

export interface ConfigIssue {
  /** Where: `pipeline[2].params.keepLast`, `window.contextTokens`, … */
  readonly path: string
  readonly message: string
}

export type ConfigResult =
  | { readonly ok: true; readonly config: CompactionConfig }
  | { readonly ok: false; readonly issues: readonly ConfigIssue[] }

/** `a.b[2].c` from a zod path. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = ''
  for (const p of path) {
    if (typeof p === 'number') out += `[${p}]`
    else out += out === '' ? String(p) : `.${String(p)}`
  }
  return out || '(root)'
}

function issuesOf(error: z.ZodError, prefix: readonly PropertyKey[] = []): ConfigIssue[] {
  return error.issues.map((i) => ({ path: formatPath([...prefix, ...i.path]), message: i.message }))
}

/**
 * Validate a config (already migrated to the current version): the file structure, then each
 * step's parameters against its strategy's own schema. Returns the config with every default
 * filled in (step params included), or every problem with the path where it is.
 */
export function validateConfig(
  raw: unknown,
  registry: ReadonlyMap<string, AnyStrategy>,
): ConfigResult {
  const parsed = configSchema.safeParse(raw)
  if (!parsed.success) return { ok: false, issues: issuesOf(parsed.error) }
  const issues: ConfigIssue[] = []
  const pipeline = parsed.data.pipeline.map((step, i) => {
    const strategy = registry.get(step.strategy)
    if (!strategy) {
      issues.push({
        path: `pipeline[${i}].strategy`,
        message: `unknown strategy "${step.strategy}"; one of: ${[...registry.keys()].join(', ')}`,
      })
      return step
    }
    const params = strategy.schema.safeParse(step.params)
    if (!params.success) {
      pushAll(issues, issuesOf(params.error, ['pipeline', i, 'params']))
      return step
    }
    return { ...step, params: params.data as Record<string, unknown> }
  })
  if (issues.length > 0) return { ok: false, issues }
  return { ok: true, config: { ...parsed.data, pipeline } }
}

/** The engine's runtime view of a validated config. */
export function toEngineConfig(config: CompactionConfig): EngineConfig {
  return {
    window: config.window,
    protections: config.protections,
    pipeline: config.pipeline,
    fallback: config.fallback,
  }
}
