import type { Importer } from '../types.ts'
import { detect } from './detect.ts'
import { parse } from './parse.ts'
import { serialize } from './serialize.ts'

/**
 * Vercel AI SDK messages: ModelMessage arrays (v5 `input`/`output`, v4 `args`/`result`) and
 * UIMessage arrays (`tool-<name>` / `dynamic-tool` parts holding call + result, split into a
 * call and a `role:'tool'` result; multi-step assistant messages split at `step-start`).
 */
export const importer: Importer = {
  id: 'ai-sdk',
  label: 'Vercel AI SDK messages',
  detect,
  parse,
  serialize,
}
