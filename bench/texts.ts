import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

/**
 * Deterministic benchmark text by category, from files every checkout has (node_modules) plus
 * system prose when present — the same recipe as the shared perf anchors, so figures compare.
 */
function readIf(path: string): string {
  return existsSync(path) ? readFileSync(path, 'utf8') : ''
}

function take(text: string, bytes: number): string {
  if (text.length === 0) return text
  let out = text
  while (out.length < bytes) out += text
  return out.slice(0, bytes)
}

/** Split into "messages" of 1–16 KB, each counted with its own call, as the app does. */
export function toMessages(text: string, seed = 1): string[] {
  const out: string[] = []
  let s = seed
  let i = 0
  while (i < text.length) {
    s = (s * 1103515245 + 12345) >>> 0
    const len = 1024 + (s % (15 * 1024))
    out.push(text.slice(i, i + len))
    i += len
  }
  return out
}

export function codeText(bytes: number): string {
  const files = [
    'node_modules/typescript/lib/lib.es5.d.ts',
    'node_modules/react-dom/cjs/react-dom-client.development.js',
    'node_modules/zod/v4/core/schemas.js',
    'node_modules/zustand/esm/vanilla.mjs',
  ]
  return take(files.map(readIf).join('\n'), bytes)
}

export function jsonText(bytes: number): string {
  const lock = JSON.parse(readIf('package-lock.json') || '{}') as unknown
  const pretty = JSON.stringify(lock, null, 2)
  const compact = JSON.stringify(lock)
  return take(pretty + '\n' + compact, bytes)
}

export function proseText(bytes: number): string {
  const dirs = ['/usr/share/common-licenses']
  let text = ''
  for (const dir of dirs) {
    if (!existsSync(dir)) continue
    for (const f of readdirSync(dir).sort()) {
      try {
        text += readFileSync(join(dir, f), 'utf8') + '\n'
      } catch {
        // directories / unreadable entries are skipped
      }
    }
  }
  if (text.length < 10_000) {
    text += ['react', 'zustand', 'vite', 'typescript', 'recharts']
      .map((p) => readIf(`node_modules/${p}/README.md`))
      .join('\n')
  }
  return take(text, bytes)
}

export async function minifiedText(bytes: number): Promise<string> {
  try {
    const esbuild = await import('esbuild')
    const src = readIf('node_modules/react-dom/cjs/react-dom-client.development.js')
    return take(esbuild.transformSync(src, { minify: true }).code, bytes)
  } catch {
    return ''
  }
}

/** Random bytes as base64 (a deterministic LCG, so runs compare). */
export function base64Text(bytes: number): string {
  const raw = Buffer.alloc(Math.ceil((bytes * 3) / 4))
  let s = 12345
  for (let i = 0; i < raw.length; i++) {
    s = (s * 1664525 + 1013904223) >>> 0
    raw[i] = s >>> 24
  }
  return raw.toString('base64').slice(0, bytes)
}
