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

export default defineConfig({
  plugins: [react(), cspHashInlineScriptsInDev()],
  worker: { format: 'es' },
  build: { target: 'es2022' },
  server: { port: 5173, strictPort: false },
  preview: { port: 4173 },
})
