import { usePreview } from '../../../store/index.ts'
import { Section } from '../../components/Section.tsx'
import { TID } from '../../testids.ts'

/** Two short excerpts to recognise the transcript by. Plain React text: never parsed as HTML. */
export function PreviewList() {
  const preview = usePreview()
  if (preview.length === 0) return null
  return (
    <Section title="Preview" testId={TID.preview}>
      {preview.map((item) => (
        <figure key={item.label} className="excerpt" data-role={item.role}>
          <figcaption className="field-label">
            {item.label} <span className="hint">({item.id})</span>
          </figcaption>
          <pre className="excerpt-text">
            {item.text}
            {item.truncated ? '…' : ''}
          </pre>
        </figure>
      ))}
    </Section>
  )
}
