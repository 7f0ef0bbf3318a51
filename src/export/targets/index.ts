/**
 * Every config translation (SPEC §7), in the order the CLI usage and the Export dialog list them.
 * The CLI (`export-config --target`) and the worker look targets up here, never by module.
 */
import type { CompactionConfig } from '../../config/schema.ts'
import { adachsoftTarget } from './adachsoft.ts'
import { anthropicTarget } from './anthropic.ts'
import { falaiTarget } from './falai.ts'
import { langchainTarget } from './langchain.ts'
import { lipTarget } from './lip.ts'
import { mafTarget } from './maf.ts'
import { opencodeTarget } from './opencode.ts'
import type { ExportTarget, TargetId, TargetOutput } from './types.ts'

export type { ExportTarget, LossyWarning, TargetId, TargetOutput } from './types.ts'

export const EXPORT_TARGETS: readonly ExportTarget[] = [
  lipTarget,
  opencodeTarget,
  anthropicTarget,
  falaiTarget,
  mafTarget,
  langchainTarget,
  adachsoftTarget,
]

const BY_ID = new Map<string, ExportTarget>(EXPORT_TARGETS.map((t) => [t.id, t]))

/** The target with this id, if there is one. */
export function findTarget(id: string): ExportTarget | undefined {
  return BY_ID.get(id)
}

export function isTargetId(id: string): id is TargetId {
  return BY_ID.has(id)
}

/**
 * Translate a validated config for one target system: its configuration text plus every part of
 * the config it could not express (`warnings`) and extra instructions (`notes`).
 */
export function exportTarget(id: TargetId, config: CompactionConfig): TargetOutput {
  const target = BY_ID.get(id)
  // TargetId is a closed union and every member is registered above; the index test checks it.
  if (!target) throw new Error(`no export target ${id}`)
  return target.export(config)
}
