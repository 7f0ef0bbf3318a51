import type { Importer } from '../types.ts'
import { detectCodex } from './detect.ts'
import { parseCodex } from './parse.ts'
import { serializeCodex } from './serialize.ts'

/** OpenAI Codex CLI / Desktop rollout JSONL (`~/.codex/sessions/…/rollout-*.jsonl`). formats.md §7. */
export const importer: Importer = {
  id: 'codex',
  label: 'Codex rollout',
  detect: detectCodex,
  parse: parseCodex,
  serialize: serializeCodex,
}
