import type { Detection, SniffedInput } from '../types.ts'
import { arr, isObject, looksLikeSse, str } from '../util.ts'
import { KeyReader } from './parts.ts'

/** Part keys only Gemini uses (either spelling). */
const GEMINI_PART_KEYS = [
  'functionCall',
  'function_call',
  'functionResponse',
  'function_response',
  'thoughtSignature',
  'thought_signature',
  'inlineData',
  'inline_data',
  'fileData',
  'file_data',
  'executableCode',
  'codeExecutionResult',
]

interface Scan {
  contents: number
  withParts: number
  modelRoles: number
  keys: Set<string>
  typedParts: number
}

function scanContents(contents: readonly unknown[]): Scan {
  const scan: Scan = {
    contents: contents.length,
    withParts: 0,
    modelRoles: 0,
    keys: new Set(),
    typedParts: 0,
  }
  for (const c of contents.slice(0, 500)) {
    if (!isObject(c) || !Array.isArray(c.parts)) continue
    scan.withParts++
    if (c.role === 'model') scan.modelRoles++
    for (const p of c.parts) {
      if (!isObject(p)) continue
      // AI-SDK UIMessage parts carry `type`; Gemini parts never do.
      if (typeof p.type === 'string') scan.typedParts++
      for (const k of GEMINI_PART_KEYS) if (k in p) scan.keys.add(k)
      if (p.thought === true) scan.keys.add('thought')
    }
  }
  return scan
}

function result(confidence: number, evidence: string[]): Detection {
  return { format: 'gemini', confidence, evidence }
}

function scanEvidence(scan: Scan): string[] {
  const ev = [`${scan.withParts}/${scan.contents} entries are {role, parts[]}`]
  if (scan.modelRoles > 0) ev.push(`${scan.modelRoles} with role "model"`)
  if (scan.keys.size > 0) ev.push(`Gemini part keys: ${[...scan.keys].join(', ')}`)
  return ev
}

/**
 * formats.md §16: `contents[]` of `{role, parts}` (role `model`, functionCall…), `candidates[]`
 * responses, bare contents arrays and SSE streams of response chunks. Gemini CLI recordings
 * (`sessionId` + `projectHash`) belong to the gemini-cli importer.
 */
export function detectGemini(input: SniffedInput): Detection | null {
  if (input.kind === 'text') {
    const head = input.text.slice(0, 4000)
    if (looksLikeSse(head) && /"candidates"\s*:/.test(head)) {
      return result(0.9, [
        'SSE stream whose data events carry `candidates` (streamGenerateContent)',
      ])
    }
    return null
  }
  if (input.kind !== 'json') return null
  const v = input.value
  const url = input.exchange?.url
  const urlHit =
    url !== undefined && /:(stream)?generateContent|generativelanguage|aiplatform/.test(url)
  const urlEvidence = urlHit ? [`captured request URL ${url}`] : []
  if (Array.isArray(v)) {
    if (v.length > 0 && v.every((c) => isObject(c) && new KeyReader(c).has('candidates'))) {
      return result(0.9, [`array of ${v.length} response chunks with candidates[]`])
    }
    if (v.some((c) => isObject(c) && 'info' in c)) return null
    const scan = scanContents(v)
    if (scan.withParts === 0 || scan.withParts < v.length * 0.8 || scan.typedParts > 0) return null
    const strong = scan.modelRoles > 0 || scan.keys.size > 0
    return result(strong ? 0.9 : 0.6, [
      ...scanEvidence(scan),
      ...(strong ? [] : ['only user/text parts: likely Gemini']),
    ])
  }
  if (!isObject(v)) return null
  if ('sessionId' in v && 'projectHash' in v) return null
  const body = new KeyReader(v)
  if (!Array.isArray(v.contents)) {
    const candidates = body.get('candidates')
    if (Array.isArray(candidates)) {
      const ev = ['object with candidates[] (generateContent response)']
      if (body.has('usageMetadata')) ev.push('usageMetadata')
      return result(body.has('usageMetadata') || body.has('modelVersion') ? 0.95 : 0.85, ev)
    }
    return null
  }
  const scan = scanContents(v.contents)
  if (scan.typedParts > 0 && scan.modelRoles === 0) return null
  const evidence = ['object with contents[]', ...scanEvidence(scan), ...urlEvidence]
  let confidence = scan.withParts > 0 || v.contents.length === 0 ? 0.85 : 0.5
  for (const k of ['systemInstruction', 'generationConfig', 'toolConfig', 'safetySettings']) {
    if (body.has(k)) {
      evidence.push(`${k} (or snake_case)`)
      confidence = Math.max(confidence, 0.95)
    }
  }
  const decl = arr(v.tools).some(
    (t) => isObject(t) && ('functionDeclarations' in t || 'function_declarations' in t),
  )
  if (decl) evidence.push('tools with functionDeclarations')
  if (decl || scan.modelRoles > 0 || scan.keys.size > 0 || urlHit)
    confidence = Math.max(confidence, 0.95)
  if (str(v.model)?.startsWith('gemini')) evidence.push(`model ${String(v.model)}`)
  return result(confidence, evidence)
}
