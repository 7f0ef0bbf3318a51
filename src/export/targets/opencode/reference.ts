/**
 * The `opencode` preset's step parameters: our model of opencode's built-in prune constants and
 * summary behaviour, which `opencode.json` cannot change. Read from the preset itself so the
 * export and the preset cannot drift apart.
 */
import { presetConfig } from '../../../config/presets.ts'
import { gatedThreshold, type ActiveStep, type TokenTrigger } from '../index-helpers.ts'

export interface OpencodeReference {
  readonly prune: Readonly<Record<string, unknown>>
  readonly summarize: Readonly<Record<string, unknown>>
}

let cached: OpencodeReference | undefined

/** The preset's prune and summarize params (validated, defaults filled), computed once. */
export function reference(): OpencodeReference {
  if (!cached) {
    const steps = presetConfig('opencode').pipeline
    const params = (id: string) => steps.find((s) => s.strategy === id)?.params ?? {}
    cached = { prune: params('prune-tool-outputs'), summarize: params('summarize') }
  }
  return cached
}

/** Tokens above which the summary runs (pipeline trigger and the step's own gate). */
export function summaryThreshold(s: ActiveStep, usable: number): TokenTrigger {
  return gatedThreshold(s, usable, 'opencode', 'compaction')
}
