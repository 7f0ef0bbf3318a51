import { useId, useState } from 'react'
import { useConfigActions } from '../../../store/index.ts'
import { parseJson } from './jsonText.ts'
import { TID } from '../../testids.ts'

function format(config: unknown): string {
  return JSON.stringify(config, null, 2) ?? ''
}

/**
 * The whole config as JSON, in both directions: form edits rewrite the text; valid text typed
 * here becomes the config (and runs); invalid text says where it breaks and runs nothing.
 */
export function JsonView({ config }: { readonly config: unknown }) {
  const { setConfig } = useConfigActions()
  const id = useId()
  // `from` is the config the text stands for: when the store holds something else (a form edit,
  // a preset), the text is rewritten; after our own valid edit it is the same object, so the
  // user's formatting and cursor stay.
  const [draft, setDraft] = useState({ text: format(config), from: config })
  if (draft.from !== config) setDraft({ text: format(config), from: config })
  const parsed = parseJson(draft.text)

  const onChange = (text: string) => {
    const next = parseJson(text)
    if (next.ok) {
      setDraft({ text, from: next.value })
      setConfig(next.value)
    } else {
      setDraft({ text, from: draft.from })
    }
  }
  return (
    <div className="cfg-json">
      <label className="subhead" htmlFor={id}>
        JSON <span className="hint">· edits here update the form and run</span>
      </label>
      <textarea
        id={id}
        className="cfg-json-text"
        spellCheck={false}
        value={draft.text}
        aria-invalid={!parsed.ok || undefined}
        data-testid={TID.configJson}
        onChange={(e) => onChange(e.target.value)}
      />
      {parsed.ok ? null : (
        <div
          className="cfg-field-error"
          role="alert"
          data-testid={TID.configJsonError}
          data-line={parsed.line}
          data-column={parsed.column}
        >
          Line {parsed.line}, column {parsed.column}: {parsed.message}. Not run until the JSON is
          valid.
        </div>
      )}
    </div>
  )
}
