/**
 * The presets' ids, in the order the app offers them. Dependency-free so the UI thread has the
 * very list `presets.ts` defines (through the worker protocol) without the strategy registry
 * that the presets' configs pull in.
 */
export const PRESET_IDS = [
  'recommended',
  'lip',
  'adachsoft',
  'falai',
  'opencode',
  'maf-context-window',
  'anthropic-clear-tool-uses',
] as const
export type PresetId = (typeof PRESET_IDS)[number]

export const DEFAULT_PRESET: PresetId = 'recommended'

export function isPresetId(value: string): value is PresetId {
  return (PRESET_IDS as readonly string[]).includes(value)
}
