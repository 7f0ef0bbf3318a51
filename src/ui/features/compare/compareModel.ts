/** Which configs the compare panel offers, and how much of a long difference list it draws (pure). */
import type { WirePreset } from '../../../store/index.ts'

/** The working config (edited, or the selected preset as it is) or a preset by id. */
export type ConfigChoice = 'working' | `preset:${string}`

export interface ChoiceOption {
  readonly value: ConfigChoice
  readonly label: string
}

/** Differing groups drawn at most: the count says how many there are in all. */
export const MAX_ROWS = 500

export function choiceOptions(presets: readonly WirePreset[]): ChoiceOption[] {
  return [
    { value: 'working', label: 'current working config' },
    ...presets.map((p) => ({ value: `preset:${p.id}` as const, label: `preset: ${p.id}` })),
  ]
}

export function isChoice(value: string): value is ConfigChoice {
  return value === 'working' || value.startsWith('preset:')
}

/** The config a choice stands for; null while the working config or presets are not known. */
export function configOf(
  choice: ConfigChoice,
  working: unknown,
  presets: readonly WirePreset[],
): unknown {
  if (choice === 'working') return working
  const id = choice.slice('preset:'.length)
  return presets.find((p) => p.id === id)?.config ?? null
}

/** B by default: the first preset other than the one in use, so the first Compare says something. */
export function defaultB(presets: readonly WirePreset[], selectedPreset: string): ConfigChoice {
  const other = presets.find((p) => p.id !== selectedPreset) ?? presets[0]
  return other ? `preset:${other.id}` : 'working'
}
