import { useState } from 'react'
import { pathText, type Path } from '../../../store/index.ts'
import { useFieldApi } from './editorContext.ts'
import { FieldErrors } from './FieldErrors.tsx'
import { checkValue, listText, parseListText, type FieldSpec } from './schemaFields.ts'
import { TID } from '../../testids.ts'
import { parseJson } from './jsonText.ts'

interface InputProps {
  readonly path: Path
  readonly spec: FieldSpec
  readonly value: unknown
  readonly id: string
}

function sameList(a: unknown, b: unknown): boolean {
  return (
    Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => x === b[i])
  )
}

/**
 * An array of strings as `a, b, c`. The text is kept while it means the same list, so typing a
 * trailing comma or space does not get "corrected" under the cursor.
 */
export function ListInput({ path, spec, value, id }: InputProps) {
  const { update } = useFieldApi()
  const [draft, setDraft] = useState({ text: listText(value), from: value })
  if (draft.from !== value && !sameList(draft.from, value))
    setDraft({ text: listText(value), from: value })
  const options = spec.field.kind === 'stringList' ? spec.field.options : null
  const onChange = (text: string) => {
    const list = parseListText(text)
    const same = sameList(list, draft.from)
    setDraft({ text, from: same ? draft.from : list })
    if (!same) update(path, list)
  }
  return (
    <>
      <input
        id={id}
        className="cfg-input"
        type="text"
        spellCheck={false}
        value={draft.text}
        placeholder={options ? options.join(', ') : 'comma-separated'}
        title={options ? `One or more of: ${options.join(', ')}` : 'Comma-separated values'}
        data-testid={TID.configField}
        data-path={pathText(path)}
        onChange={(e) => onChange(e.target.value)}
      />
      <FieldErrors path={path} local={checkValue(spec, parseListText(draft.text))} />
    </>
  )
}

function jsonOf(value: unknown): string {
  return value === undefined ? '' : JSON.stringify(value)
}

/** Any param the form has no widget for (a union, a map): its JSON, checked as you type. */
export function JsonInput({ path, value, id }: InputProps) {
  const { update } = useFieldApi()
  const [draft, setDraft] = useState({ text: jsonOf(value), from: value })
  if (draft.from !== value) setDraft({ text: jsonOf(value), from: value })
  const trimmed = draft.text.trim()
  const parsed = trimmed === '' ? null : parseJson(draft.text)
  const local = parsed && !parsed.ok ? `JSON: ${parsed.message} (column ${parsed.column})` : null
  const onChange = (text: string) => {
    const next = text.trim() === '' ? { ok: true as const, value: undefined } : parseJson(text)
    const sent = next.ok ? next.value : draft.from
    setDraft({ text, from: sent })
    if (next.ok) update(path, sent)
  }
  return (
    <>
      <textarea
        id={id}
        className="cfg-input cfg-json-small"
        rows={1}
        spellCheck={false}
        value={draft.text}
        data-testid={TID.configField}
        data-path={pathText(path)}
        onChange={(e) => onChange(e.target.value)}
      />
      <FieldErrors path={path} local={local} />
    </>
  )
}
