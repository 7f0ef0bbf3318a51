import type { ChangeEvent } from 'react'
import {
  isPresetId,
  PRESET_IDS,
  useConfigSource,
  useRunActions,
  useSelectedPreset,
} from '../../../store/index.ts'
import type { PresetId } from '../../../store/index.ts'
import { TID } from '../../testids.ts'

/** What each preset reproduces, as the picker shows it (the ids are the CLI's `--preset`). */
const PRESET_LABELS: Record<PresetId, string> = {
  recommended: 'ours',
  lip: 'llm-interactive-proxy',
  adachsoft: 'tool_compaction',
  falai: '@falai/agent',
  opencode: 'opencode prune',
  'maf-context-window': 'MS Agent Framework',
  'anthropic-clear-tool-uses': 'Anthropic context editing',
}

/** A native <select>, so it is keyboard-usable (arrows, type-ahead) with no extra code. */
export function PresetPicker() {
  const selected = useSelectedPreset()
  const { customConfig } = useConfigSource()
  const { runPreset } = useRunActions()
  const onChange = (event: ChangeEvent<HTMLSelectElement>) => {
    const value = event.target.value
    if (isPresetId(value)) void runPreset(value)
  }
  return (
    <label className="inline-field">
      <span className="field-label">Preset</span>
      <select
        className="select preset-select"
        value={selected}
        title={`${selected} — ${PRESET_LABELS[selected]}`}
        onChange={onChange}
        data-testid={TID.presetPicker}
      >
        {PRESET_IDS.map((id) => (
          <option key={id} value={id}>
            {id} — {PRESET_LABELS[id]}
          </option>
        ))}
      </select>
      {customConfig !== null ? (
        // The run uses the edited config, not the preset as shipped: say so where the preset is.
        <span
          className="pill medium"
          title="The config was edited from this preset; the editor's “Reset to preset” undoes it"
          data-testid={TID.configEdited}
        >
          edited
        </span>
      ) : null}
    </label>
  )
}
