import { useMemo } from 'react'
import type { ExportLanguage } from '../../../store/index.ts'
import { TID } from '../../testids.ts'
import { previewText, tokenize } from './highlight.ts'

/** Past this size the preview shows the head only: thousands of spans would make typing lag. */
const PREVIEW_CHARS = 80_000

interface CodePreviewProps {
  readonly text: string
  readonly language: ExportLanguage
  readonly fileName: string
  /** The dialog's choice the preview is for (tests wait on it with `data-state`). */
  readonly choice: string
  readonly state: 'loading' | 'ready' | 'error'
}

/** The exported file, highlighted as React text spans (never markup built from the file). */
export function CodePreview({ text, language, fileName, choice, state }: CodePreviewProps) {
  const shown = useMemo(() => previewText(text, PREVIEW_CHARS), [text])
  const tokens = useMemo(() => tokenize(shown.text, language), [shown.text, language])
  return (
    <div className="xp-preview-wrap">
      <pre
        className="xp-preview"
        data-testid={TID.exportPreview}
        data-file={fileName}
        data-choice={choice}
        data-language={language}
        data-state={state}
        aria-label={`Preview of ${fileName}`}
        aria-busy={state === 'loading'}
        tabIndex={0}
      >
        <code>
          {tokens.map((t, i) =>
            t.kind === 'plain' ? (
              t.text
            ) : (
              <span key={i} className={`xp-tok xp-${t.kind}`}>
                {t.text}
              </span>
            ),
          )}
        </code>
      </pre>
      {shown.cut ? (
        <p className="hint">
          Preview shows the first {shown.text.length.toLocaleString()} of{' '}
          {text.length.toLocaleString()} characters; Copy and Download use the whole file.
        </p>
      ) : null}
    </div>
  )
}
