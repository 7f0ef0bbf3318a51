/**
 * Checks of exported files against what the real systems accept, written down in `facts/` from
 * their sources. Each returns the problems it finds (empty: the target loads the file); a test
 * asserts the list is empty, so a failure names exactly what the real system would refuse.
 */
import { parse as parseYaml } from 'yaml'
import { parsePhpReturnArray, type PhpJs } from '../targets/adachsoft/php-array.testing.ts'
import { ADACHSOFT_KEYS } from './facts/adachsoft.ts'
import { LIP_CATEGORIES, LIP_COMPACTION_KEYS } from './facts/lip.ts'
import { MAF_COMPACTION_MODULE, MAF_CONSTRUCTORS, MAF_ROOT } from './facts/maf.ts'
import { OPENCODE_COMPACTION_KEYS, OPENCODE_SCHEMA_URL } from './facts/opencode.ts'
import { pushAll } from '../../engine/arrays.ts'

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v)
const isStrings = (v: unknown): v is string[] =>
  Array.isArray(v) && v.every((x) => typeof x === 'string')

/** config.yaml: only a `compaction` block whose keys and types the proxy's schema allows. */
export function lipProblems(text: string): string[] {
  const doc = parseYaml(text) as unknown
  if (!doc || typeof doc !== 'object') return ['the file is not a YAML mapping']
  const out: string[] = []
  const top = Object.keys(doc)
  if (top.join() !== 'compaction') out.push(`top-level keys ${top.join(', ')}; expected compaction`)
  const c = (doc as { compaction?: unknown }).compaction
  if (!c || typeof c !== 'object') return [...out, 'compaction is not a mapping']
  for (const [key, value] of Object.entries(c)) {
    const type = LIP_COMPACTION_KEYS[key]
    if (!type) out.push(`compaction.${key} is not allowed (additionalProperties: false)`)
    else if (type === 'boolean' && typeof value !== 'boolean') out.push(`${key} is not a boolean`)
    else if (type === 'string' && typeof value !== 'string') out.push(`${key} is not a string`)
    else if (type === 'integer>=0' && !(isInt(value) && value >= 0))
      out.push(`${key} is not an integer >= 0`)
    else if (type === 'string[]') {
      if (!isStrings(value)) out.push(`${key} is not a list of strings`)
      else
        for (const v of value)
          if (!LIP_CATEGORIES.includes(v)) out.push(`${key}: ${v} is no ToolCategory value`)
    }
  }
  return out
}

/** opencode.json (JSONC): `$schema` and a `compaction` object of known keys and types. */
export function opencodeProblems(text: string): string[] {
  const json = text.replace(/^\s*\/\/.*$/gm, '')
  let doc: unknown
  try {
    doc = JSON.parse(json)
  } catch (error) {
    return [`not JSON after its comment lines: ${String(error)}`]
  }
  const out: string[] = []
  const o = doc as { $schema?: unknown; compaction?: Record<string, unknown> }
  if (o.$schema !== OPENCODE_SCHEMA_URL) out.push(`$schema is ${String(o.$schema)}`)
  for (const [key, value] of Object.entries(o.compaction ?? {})) {
    const type = OPENCODE_COMPACTION_KEYS[key]
    if (!type) out.push(`compaction.${key} is not in opencode's schema (it would be dropped)`)
    else if (type === 'boolean' && typeof value !== 'boolean') out.push(`${key} is not a boolean`)
    else if (type === 'int>=0' && !(isInt(value) && value >= 0))
      out.push(`${key} is not an integer >= 0`)
  }
  return out
}

/** The params array (or null: not selected) with adachsoft's keys and types only. */
export function adachsoftProblems(text: string): string[] {
  let value: PhpJs
  try {
    value = parsePhpReturnArray(text)
  } catch (error) {
    return [`not a PHP file returning an array: ${String(error)}`]
  }
  if (value === null) return []
  if (typeof value !== 'object' || Array.isArray(value)) return ['the file returns no map']
  const out: string[] = []
  for (const [key, v] of Object.entries(value)) {
    const type = ADACHSOFT_KEYS[key]
    if (!type) out.push(`${key} is not a tool_compaction parameter`)
    else if (type === 'int>0' && !(isInt(v) && v > 0)) out.push(`${key} is not an int > 0`)
    else if (type === 'string[]' && !isStrings(v)) out.push(`${key} is not a list of strings`)
    else if (type === 'map<string,string[]>') {
      // PHP writes an empty map as [], which reads back as a list.
      const map = Array.isArray(v) && v.length === 0 ? {} : v
      if (!map || typeof map !== 'object' || Array.isArray(map)) out.push(`${key} is not a map`)
      else
        for (const [tool, fields] of Object.entries(map))
          if (!isStrings(fields)) out.push(`${key}.${tool} is not a list of field names`)
    }
  }
  return out
}

/** A call `Name(...)` in the Python text: its name and top-level arguments. */
interface PyCall {
  readonly name: string
  readonly args: readonly string[]
}

/** Top-level calls of capitalised names (constructors), nested ones included, in order. */
function pythonCalls(text: string): PyCall[] {
  const calls: PyCall[] = []
  const re = /\b([A-Z][A-Za-z0-9_]*)\(/g
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const start = m.index + m[0].length
    const args: string[] = []
    let depth = 0
    let current = ''
    let i = start
    for (; i < text.length; i++) {
      const ch = text[i] as string
      if (ch === '"') {
        const end = text.indexOf('"', i + 1)
        let j = end
        while (j > 0 && text[j - 1] === '\\') j = text.indexOf('"', j + 1)
        current += text.slice(i, j + 1)
        i = j
        continue
      }
      if (ch === '(' || ch === '[' || ch === '{') depth++
      if (ch === ')' || ch === ']' || ch === '}') {
        if (depth === 0) break
        depth--
      }
      if (ch === ',' && depth === 0) {
        args.push(current.trim())
        current = ''
      } else current += ch
    }
    if (current.trim() !== '') args.push(current.trim())
    calls.push({ name: m[1] as string, args })
  }
  return calls
}

/** The snippet imports only what agent_framework has and calls constructors as they are. */
export function mafProblems(text: string): string[] {
  const out: string[] = []
  const defined = new Set([...text.matchAll(/^class ([A-Za-z_]\w*)/gm)].map((m) => m[1] as string))
  const imported = new Set<string>()
  for (const m of text.matchAll(/^from agent_framework import ([^\n(]+)$/gm))
    for (const name of (m[1] as string).split(',').map((s) => s.trim())) {
      imported.add(name)
      if (!MAF_ROOT.includes(name)) out.push(`agent_framework has no ${name} at its root`)
    }
  for (const m of text.matchAll(/^from agent_framework\._compaction import \(([^)]*)\)/gm))
    for (const name of (m[1] as string).split(/[\s,]+/).filter(Boolean)) {
      imported.add(name)
      if (!MAF_COMPACTION_MODULE.includes(name)) out.push(`_compaction has no ${name}`)
    }
  for (const m of text.matchAll(/^from agent_framework\._compaction import ([^\n(]+)$/gm))
    for (const name of (m[1] as string).split(',').map((s) => s.trim())) {
      imported.add(name)
      if (!MAF_COMPACTION_MODULE.includes(name)) out.push(`_compaction has no ${name}`)
    }
  // Comment lines (the usage hint `Agent(client=…)`) are not code.
  const code = text.replace(/^\s*#.*$/gm, '')
  for (const call of pythonCalls(code)) {
    if (defined.has(call.name)) continue
    const params = MAF_CONSTRUCTORS[call.name]
    if (!params) {
      out.push(`${call.name}(…) is neither an Agent Framework class nor defined in the file`)
      continue
    }
    if (!imported.has(call.name)) out.push(`${call.name} is used but not imported`)
    const given = new Map<string, string>()
    for (const arg of call.args) {
      const eq = /^([a-z_][a-z0-9_]*)=([\s\S]*)$/.exec(arg)
      if (!eq) {
        out.push(`${call.name} takes keyword arguments only; got "${arg.slice(0, 40)}"`)
        continue
      }
      given.set(eq[1] as string, (eq[2] as string).trim())
    }
    for (const [key, literal] of given) {
      const p = params[key]
      if (!p) out.push(`${call.name} has no parameter ${key}`)
      else {
        const problem = p.check?.(literal)
        if (problem) out.push(`${call.name}(${key}=…): ${problem}`)
      }
    }
    for (const [key, p] of Object.entries(params))
      if (p.required && !given.has(key)) out.push(`${call.name} needs ${key}`)
    pushAll(out, crossChecks(call.name, given))
  }
  return out
}

const pyNumber = (literal: string | undefined) =>
  literal === undefined ? undefined : Number(literal.replace(/_/g, ''))

/** The ValueErrors that compare two parameters of one constructor. */
function crossChecks(name: string, given: ReadonlyMap<string, string>): string[] {
  if (name === 'TruncationStrategy') {
    const maxN = pyNumber(given.get('max_n'))
    const compactTo = pyNumber(given.get('compact_to'))
    if (maxN !== undefined && compactTo !== undefined && compactTo > maxN)
      return ['TruncationStrategy: compact_to must be <= max_n']
  }
  if (name === 'ContextWindowCompactionStrategy') {
    const window = pyNumber(given.get('max_context_window_tokens')) ?? 0
    const output = pyNumber(given.get('max_output_tokens')) ?? 0
    const evict = pyNumber(given.get('tool_eviction_threshold')) ?? 0.5
    const truncate = pyNumber(given.get('truncation_threshold')) ?? 0.8
    const out: string[] = []
    if (output >= window) out.push('ContextWindowCompactionStrategy: max_output_tokens >= window')
    if (truncate < evict)
      out.push('ContextWindowCompactionStrategy: truncation_threshold < tool_eviction_threshold')
    return out
  }
  return []
}
