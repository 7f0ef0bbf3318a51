import type { ChangeEvent } from 'react'
import { useSamples, useSource, useTranscriptActions } from '../../../store/index.ts'
import { TID } from '../../testids.ts'

/** Built-in samples from `public/samples/index.json` (same origin; nothing is fetched elsewhere). */
export function SamplePicker() {
  const { samples, samplesStatus, samplesError } = useSamples()
  const { origin, fileName } = useSource()
  const { loadSample } = useTranscriptActions()
  const current =
    origin === 'sample' ? (samples.find((s) => s.fileName === fileName)?.id ?? '') : ''

  const onChange = (event: ChangeEvent<HTMLSelectElement>) => {
    if (event.target.value) void loadSample(event.target.value)
  }

  if (samplesStatus === 'error') {
    return (
      <span className="hint warn" title={samplesError ?? undefined}>
        samples unavailable
      </span>
    )
  }
  return (
    <label className="inline-field">
      <span className="field-label">Sample</span>
      <select
        className="select"
        value={current}
        onChange={onChange}
        disabled={samples.length === 0}
        title={samples.find((s) => s.id === current)?.title}
        data-testid={TID.samplePicker}
      >
        <option value="">{samplesStatus === 'loading' ? 'loading…' : 'choose a sample…'}</option>
        {samples.map((sample) => (
          <option key={sample.id} value={sample.id} title={sample.description}>
            {sample.title}
          </option>
        ))}
      </select>
    </label>
  )
}
