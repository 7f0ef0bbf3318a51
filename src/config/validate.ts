import { pathText } from './path.ts'
import type { z } from 'zod'
import type { AnyStrategy } from '../engine/compaction/strategy.ts'
import type { EngineConfig } from '../engine/compaction/types.ts'
import { pushAll } from '../engine/arrays.ts'
import { isObject } from '../formats/util.ts'
import { configSchema, type CompactionConfig } from './schema.ts'
import { nearest, unknownKeys } from './strict.ts'

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
  return pathText(path.map((p) => (typeof p === 'number' ? p : String(p)))) || '(root)'
}

/**
 * zod's own words for a missing field are "expected object, received undefined"; say "missing"
 * instead, with what was expected.
 */
const errorMap: z.core.$ZodErrorMap = (issue) => {
  if (issue.code === 'invalid_type' && issue.input === undefined)
    return `missing: expected ${article(issue.expected)}`
  return undefined
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`
}

function issuesOf(error: z.ZodError, prefix: readonly PropertyKey[] = []): ConfigIssue[] {
  return error.issues.map((i) => ({ path: formatPath([...prefix, ...i.path]), message: i.message }))
}

function unknownKeyIssues(
  schema: z.core.$ZodType,
  value: unknown,
  prefix: readonly PropertyKey[] = [],
): ConfigIssue[] {
  return unknownKeys(schema, value, prefix).map((u) => ({
    path: formatPath([...u.path, u.key]),
    message: u.suggestion
      ? `unknown key "${u.key}"; did you mean \`${u.suggestion}\`?`
      : `unknown key "${u.key}"; valid here: ${u.valid.map((k) => `\`${k}\``).join(', ') || '(none)'}`,
  }))
}

/**
 * Order issues as they appear in the file: each path ranks where its key first occurs in the
 * value (a missing key ranks right after its parent), so the list reads top to bottom.
 */
function inFileOrder(raw: unknown, issues: readonly ConfigIssue[]): ConfigIssue[] {
  const rank = new Map<string, number>()
  const stack: { value: unknown; path: PropertyKey[] }[] = [{ value: raw, path: [] }]
  while (stack.length > 0) {
    const { value, path } = stack.pop() as { value: unknown; path: PropertyKey[] }
    rank.set(formatPath(path), rank.size)
    const children: [PropertyKey, unknown][] = Array.isArray(value)
      ? value.map((v, i) => [i, v])
      : isObject(value)
        ? Object.entries(value)
        : []
    for (let i = children.length - 1; i >= 0; i--) {
      const [k, v] = children[i] as [PropertyKey, unknown]
      stack.push({ value: v, path: [...path, k] })
    }
  }
  const rankOf = (path: string): number => {
    for (let p = path; ;) {
      const r = rank.get(p)
      if (r !== undefined) return p === path ? r : r + 0.5
      const cut = Math.max(p.lastIndexOf('.'), p.lastIndexOf('['))
      if (cut <= 0) return p === '(root)' ? -1 : (rank.get('(root)') ?? 0) + 0.5
      p = p.slice(0, cut)
    }
  }
  return issues
    .map((issue, i) => ({ issue, i, r: rankOf(issue.path) }))
    .sort((a, b) => a.r - b.r || a.i - b.i)
    .map((x) => x.issue)
}

/**
 * Validate a config (already migrated to the current version): the file structure, unknown keys
 * anywhere (with the nearest valid key), and each step's parameters against its strategy's own
 * schema. Returns the config with every default filled in (step params included), or every
 * problem at once, each with the path where it is — a missing \`window\` does not hide the rest.
 */
export function validateConfig(
  raw: unknown,
  registry: ReadonlyMap<string, AnyStrategy>,
): ConfigResult {
  const parsed = configSchema.safeParse(raw, { error: errorMap })
  const issues: ConfigIssue[] = parsed.success ? [] : issuesOf(parsed.error)
  pushAll(issues, unknownKeyIssues(configSchema, raw))
  // Step params are checked even when the file structure is broken elsewhere.
  const rawSteps = isObject(raw) && Array.isArray(raw.pipeline) ? raw.pipeline : []
  const checked = rawSteps.map((step: unknown, i) => {
    if (!isObject(step) || typeof step.strategy !== 'string') return undefined
    const strategy = registry.get(step.strategy)
    if (!strategy) {
      const ids = [...registry.keys()]
      const near = nearest(step.strategy, ids)
      issues.push({
        path: `pipeline[${i}].strategy`,
        message: near
          ? `unknown strategy "${step.strategy}"; did you mean \`${near}\`?`
          : `unknown strategy "${step.strategy}"; one of: ${ids.join(', ')}`,
      })
      return undefined
    }
    const rawParams = step.params ?? {}
    if (!isObject(rawParams)) return undefined // the structure check already says so
    const params = strategy.schema.safeParse(rawParams, { error: errorMap })
    pushAll(issues, unknownKeyIssues(strategy.schema, rawParams, ['pipeline', i, 'params']))
    if (!params.success) {
      pushAll(issues, issuesOf(params.error, ['pipeline', i, 'params']))
      return undefined
    }
    return params.data as Record<string, unknown>
  })
  if (!parsed.success || issues.length > 0)
    return { ok: false, issues: inFileOrder(raw, dedupe(issues)) }
  const pipeline = parsed.data.pipeline.map((step, i) => ({
    ...step,
    params: checked[i] ?? step.params,
  }))
  return { ok: true, config: { ...parsed.data, pipeline } }
}

function dedupe(issues: readonly ConfigIssue[]): ConfigIssue[] {
  const seen = new Set<string>()
  return issues.filter((i) => {
    const key = `${i.path}\u0000${i.message}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

/** The engine's runtime view of a validated config. */
export function toEngineConfig(config: CompactionConfig): EngineConfig {
  return {
    window: config.window,
    protections: config.protections,
    pipeline: config.pipeline,
    fallback: config.fallback,
    ...(config.accounting ? { accounting: config.accounting } : {}),
    ...(config.pricing ? { pricing: config.pricing } : {}),
  }
}
