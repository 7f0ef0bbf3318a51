import type { ChangeEvent } from 'react'
import { useFormatChoice, useReport, useTranscriptActions } from '../../../store/index.ts'
import type { Detection } from '../../../store/index.ts'
import { Section } from '../../components/Section.tsx'
import { formatPercent } from '../../lib/format.ts'
import { TID } from '../../testids.ts'
import { MetaLine } from './MetaLine.tsx'

function confidenceLevel(confidence: number): 'high' | 'medium' | 'low' {
  if (confidence >= 0.9) return 'high'
  return confidence >= 0.6 ? 'medium' : 'low'
}

function FormatOverride() {
  const { detection, candidates, formats, forcedFormat } = useFormatChoice()
  const { overrideFormat } = useTranscriptActions()
  const proposed = new Set(candidates.map((c) => c.format))
  const others = [...new Set(formats)].filter((f) => !proposed.has(f))
  const onChange = (event: ChangeEvent<HTMLSelectElement>) => {
    const value = formats.find((f) => f === event.target.value)
    void overrideFormat(value ?? null)
  }
  // Auto mode shows what detection picked, so the select never hides which parser ran.
  const auto = !forcedFormat && detection ? `auto (${detection.format})` : 'auto-detect'
  return (
    <label className="inline-field">
      <span className="field-label">Parse as</span>
      <select
        className="select"
        value={forcedFormat ?? ''}
        onChange={onChange}
        disabled={formats.length === 0}
        data-testid={TID.formatOverride}
      >
        <option value="">{auto}</option>
        {candidates.length > 0 ? (
          <optgroup label="Detected">
            {candidates.map((c) => (
              <option key={c.format} value={c.format}>
                {c.format} — {formatPercent(c.confidence)}
              </option>
            ))}
          </optgroup>
        ) : null}
        {others.length > 0 ? (
          <optgroup label="Other formats">
            {others.map((f) => (
              <option key={f} value={f}>
                {f}
              </option>
            ))}
          </optgroup>
        ) : null}
      </select>
    </label>
  )
}

function DetectionView({ detection, forced }: { detection: Detection; forced: boolean }) {
  const level = confidenceLevel(detection.confidence)
  return (
    <>
      <div className="format-line">
        <code className="format-id" data-testid={TID.detectedFormat}>
          {detection.format}
        </code>
        <span
          className={`pill ${level}`}
          data-testid={TID.formatConfidence}
          data-confidence={detection.confidence}
        >
          {formatPercent(detection.confidence)} confidence
        </span>
        {forced ? <span className="pill neutral">chosen by you</span> : null}
      </div>
      {detection.evidence.length > 0 ? (
        <ul className="evidence" data-testid={TID.formatEvidence}>
          {detection.evidence.map((fact, index) => (
            <li key={index}>{fact}</li>
          ))}
        </ul>
      ) : null}
    </>
  )
}

/** Detected format, why we think so, and the override that re-parses with another importer. */
export function FormatCard() {
  const { detection, forcedFormat } = useFormatChoice()
  const { report } = useReport()
  return (
    <Section title="Format" aside={<FormatOverride />}>
      {detection ? (
        <DetectionView detection={detection} forced={forcedFormat !== null} />
      ) : (
        <div className="format-line">
          <code className="format-id unknown" data-testid={TID.detectedFormat}>
            not recognised
          </code>
          <span className="hint">pick a format under “Parse as” to try a specific importer</span>
        </div>
      )}
      {report ? <MetaLine meta={report.meta} /> : null}
    </Section>
  )
}
