import react from '@vitejs/plugin-react'
import { createHash } from 'node:crypto'
import { defineConfig, type Plugin } from 'vite'

/**
 * Dev only: the React Fast Refresh preamble is an inline `<script type="module">`, which our CSP
 * (`script-src 'self'`) forbids. Today Vite injects it above our CSP meta, where the policy does
 * not apply yet — an accident of ordering we should not rely on. Rather than weakening the policy
 * with 'unsafe-inline', allow exactly the served page's inline scripts by their sha256 hashes.
 * Builds have no inline script, so the production policy stays exactly as written in index.html.
 */
function cspHashInlineScriptsInDev(): Plugin {
  return {
    name: 'compaction-lab:csp-dev-inline-hashes',
    apply: 'serve',
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        const hashes = [...html.matchAll(/<script\b(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)]
          .map((match) => match[1] ?? '')
          .filter((body) => body.trim() !== '')
          .map((body) => `'sha256-${createHash('sha256').update(body).digest('base64')}'`)
        if (hashes.length === 0) return html
        return html.replace(/script-src 'self'/, `script-src 'self' ${hashes.join(' ')}`)
      },
    },
  }
}

/**
 * `npm start` on a fresh clone (issue 14: first view ≤ 3 s). Every dependency the app and its
 * worker import is pre-bundled up front: left to discovery, the worker's imports (js-tiktoken's
 * rank tables, zod) are found only once the worker loads, and Vite then re-optimises and reloads
 * the page — the single largest delay of a first start. The worker is also an optimizer entry, and
 * the first view's modules are transformed while the browser is still connecting (warmup).
 */
const PREBUNDLED = [
  'react',
  'react/jsx-dev-runtime',
  'react-dom/client',
  'zustand',
  'zustand/react/shallow',
  'zod',
  'recharts',
  '@tanstack/react-table',
  '@tanstack/react-virtual',
  'js-tiktoken/ranks/o200k_base',
  'js-tiktoken/ranks/cl100k_base',
]

export default defineConfig({
  plugins: [react(), cspHashInlineScriptsInDev()],
  worker: { format: 'es' },
  build: { target: 'es2022' },
  optimizeDeps: {
    entries: ['index.html', 'src/worker/engine.worker.ts'],
    include: PREBUNDLED,
  },
  server: {
    port: 5173,
    strictPort: false,
    warmup: { clientFiles: ['./src/main.tsx', './src/worker/engine.worker.ts'] },
  },
  preview: { port: 4173 },
})
