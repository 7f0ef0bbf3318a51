import type { z } from 'zod'
import { isObject } from '../formats/util.ts'

/**
 * Unknown keys in a config, found by walking the value against its zod schema (issue 10). zod
 * objects strip unknown keys silently, so `{"protections": {"recentTurn": 4}}` used to be
 * accepted as "no protection". Deriving the check from the schema itself (rather than marking
 * each object strict) means every section added later — and every strategy's own parameter
 * schema — is covered without anyone remembering to opt in.
 */

export interface UnknownKey {
  /** Where the key is, e.g. `["protections", "recentTurn"]`. */
  readonly path: readonly PropertyKey[]
  readonly key: string
  /** The valid key it most likely meant, if one is close enough. */
  readonly suggestion?: string
  /** Every key valid at that place. */
  readonly valid: readonly string[]
}

type Def = z.core.$ZodTypes['_zod']['def']

function defOf(schema: z.core.$ZodType): Def {
  return (schema as unknown as z.core.$ZodTypes)._zod.def
}

/**
 * Every key of `value` that `schema` does not know, at any depth. Objects with a catch-all
 * (`z.looseObject`, `z.object().catchall(x)`) accept any key; records accept any key; unions
 * use the branch the value belongs to (by discriminator, else the closest one).
 */
export function unknownKeys(
  schema: z.core.$ZodType,
  value: unknown,
  path: readonly PropertyKey[] = [],
): UnknownKey[] {
  const out: UnknownKey[] = []
  // An explicit stack: configs are small, but nothing here should recurse on user data.
  const stack: { schema: z.core.$ZodType; value: unknown; path: readonly PropertyKey[] }[] = [
    { schema, value, path },
  ]
  let guard = 0
  while (stack.length > 0 && guard++ < 100_000) {
    const item = stack.pop() as (typeof stack)[number]
    visit(item.schema, item.value, item.path, stack, out)
  }
  return out.sort((a, b) => comparePaths([...a.path, a.key], [...b.path, b.key]))
}

function visit(
  schema: z.core.$ZodType,
  value: unknown,
  path: readonly PropertyKey[],
  stack: { schema: z.core.$ZodType; value: unknown; path: readonly PropertyKey[] }[],
  out: UnknownKey[],
): void {
  if (value === undefined) return
  const def = defOf(schema)
  switch (def.type) {
    case 'object': {
      if (!isObject(value)) return
      const shape = def.shape as Record<string, z.core.$ZodType>
      const catchall = def.catchall
      const open = catchall !== undefined && defOf(catchall).type !== 'never'
      const valid = Object.keys(shape)
      for (const [key, v] of Object.entries(value)) {
        const known = Object.hasOwn(shape, key) ? shape[key] : undefined
        if (known) stack.push({ schema: known, value: v, path: [...path, key] })
        else if (open && catchall) stack.push({ schema: catchall, value: v, path: [...path, key] })
        else {
          const suggestion = nearest(key, valid)
          out.push({ path, key, valid, ...(suggestion ? { suggestion } : {}) })
        }
      }
      return
    }
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      stack.push({ schema: def.innerType, value, path })
      return
    case 'pipe':
      stack.push({ schema: def.in, value, path })
      return
    case 'lazy':
      stack.push({ schema: def.getter(), value, path })
      return
    case 'array':
      if (Array.isArray(value))
        value.forEach((v, i) => stack.push({ schema: def.element, value: v, path: [...path, i] }))
      return
    case 'tuple':
      if (Array.isArray(value))
        value.forEach((v, i) => {
          const item = def.items[i] ?? def.rest
          if (item) stack.push({ schema: item, value: v, path: [...path, i] })
        })
      return
    case 'record':
      if (isObject(value))
        for (const [key, v] of Object.entries(value))
          stack.push({ schema: def.valueType, value: v, path: [...path, key] })
      return
    case 'union': {
      const branch = unionBranch(
        def.options,
        value,
        (def as { discriminator?: string }).discriminator,
      )
      if (branch) stack.push({ schema: branch, value, path })
      return
    }
    case 'intersection':
      // A key is unknown only if both sides reject it.
      for (const k of unknownKeys(def.left, value, path)) {
        const right = unknownKeys(def.right, value, path)
        if (right.some((r) => r.key === k.key && samePath(r.path, k.path))) out.push(k)
      }
      return
    default:
      return
  }
}

/** The union member the value belongs to: by discriminator, else the one with fewest unknowns. */
function unionBranch(
  options: readonly z.core.$ZodType[],
  value: unknown,
  discriminator: string | undefined,
): z.core.$ZodType | undefined {
  if (discriminator !== undefined) {
    if (!isObject(value)) return undefined
    const tag = value[discriminator]
    return options.find((o) => {
      const d = defOf(o)
      if (d.type !== 'object') return false
      const field = (d.shape as Record<string, z.core.$ZodType>)[discriminator]
      const values = field?._zod.values
      return values !== undefined && values.has(tag as never)
    })
  }
  let best: z.core.$ZodType | undefined
  let fewest = Infinity
  for (const o of options) {
    const result = o['~standard'].validate(value)
    const valid = !(result instanceof Promise) && result.issues === undefined
    // Fewest unknown keys wins; a branch the value also validates against wins a tie.
    const score = unknownKeys(o, value).length + (valid ? 0 : 0.5)
    if (score < fewest) {
      fewest = score
      best = o
    }
  }
  return best
}

function samePath(a: readonly PropertyKey[], b: readonly PropertyKey[]): boolean {
  return a.length === b.length && a.every((p, i) => p === b[i])
}

function comparePaths(a: readonly PropertyKey[], b: readonly PropertyKey[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i]
    const y = b[i]
    if (x === y) continue
    if (typeof x === 'number' && typeof y === 'number') return x - y
    return String(x) < String(y) ? -1 : 1
  }
  return a.length - b.length
}

/**
 * The valid key a typo most likely meant: Jaro-Winkler similarity (typos, dropped or doubled
 * letters, a wrong suffix all keep the shared prefix high), case-insensitive, at least 0.8.
 */
export function nearest(key: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined
  let score = 0.8
  for (const c of candidates) {
    const s = jaroWinkler(key.toLowerCase(), c.toLowerCase())
    if (s > score || (s === score && best === undefined)) {
      score = s
      best = c
    }
  }
  return best
}

function jaroWinkler(a: string, b: string): number {
  if (a === b) return 1
  if (a.length === 0 || b.length === 0) return 0
  const range = Math.max(0, Math.floor(Math.max(a.length, b.length) / 2) - 1)
  const aMatch = new Array<boolean>(a.length).fill(false)
  const bMatch = new Array<boolean>(b.length).fill(false)
  let matches = 0
  for (let i = 0; i < a.length; i++) {
    for (let j = Math.max(0, i - range); j < Math.min(b.length, i + range + 1); j++) {
      if (bMatch[j] || a[i] !== b[j]) continue
      aMatch[i] = bMatch[j] = true
      matches++
      break
    }
  }
  if (matches === 0) return 0
  let t = 0
  let k = 0
  for (let i = 0; i < a.length; i++) {
    if (!aMatch[i]) continue
    while (!bMatch[k]) k++
    if (a[i] !== b[k]) t++
    k++
  }
  const jaro = (matches / a.length + matches / b.length + (matches - t / 2) / matches) / 3
  let prefix = 0
  while (prefix < Math.min(4, a.length, b.length) && a[prefix] === b[prefix]) prefix++
  return jaro + prefix * 0.1 * (1 - jaro)
}
