import { useState } from 'react'
import { pathText, type Path } from '../../../store/index.ts'
import { useFieldApi } from './editorContext.ts'
import { FieldErrors } from './FieldErrors.tsx'
import { checkValue, parseNumberText, type FieldSpec } from './schemaFields.ts'
import { TID } from '../../testids.ts'

interface NumberInputProps {
  readonly path: Path
  readonly spec: FieldSpec
  readonly value: unknown
  readonly id: string
  readonly label?: string
}

function textOf(value: unknown): string {
  return typeof value === 'number' ? String(value) : ''
}

/**
 * A number box that keeps what the user typed (an empty box, a lone `-`) while the config keeps
 * the last number: text that is not a number yet is flagged here and never sent to the worker.
 * An emptied box means `null` for nullable params and "use the default" for defaulted ones.
 */
export function NumberInput({ path, spec, value, id, label }: NumberInputProps) {
  const { update, issuesAt } = useFieldApi()
  // The text follows the config unless the config still holds what this box last sent.
  const [draft, setDraft] = useState({ text: textOf(value), from: value })
  if (draft.from !== value) setDraft({ text: textOf(value), from: value })
  const field = spec.field.kind === 'number' ? spec.field : null
  const parsed = parseNumberText(draft.text)
  let local: string | null
  if (parsed.kind === 'invalid') local = 'must be a number'
  else if (parsed.kind === 'empty') local = field?.nullable ? null : checkValue(spec, undefined)
  else local = checkValue(spec, parsed.value)

  const onChange = (text: string) => {
    const next = parseNumberText(text)
    let sent: unknown = draft.from
    if (next.kind === 'number') sent = next.value
    else if (next.kind === 'empty' && field?.nullable) sent = null
    else if (next.kind === 'empty' && (spec.hasDefault || !spec.required)) sent = undefined
    setDraft({ text, from: sent })
    if (sent !== draft.from) update(path, sent)
  }
  const errorId = `${id}-error`
  const invalid = local !== null || issuesAt(path).length > 0
  const step = field?.integer ? 1 : field && (field.max ?? Infinity) <= 1 ? 0.05 : 'any'
  return (
    <>
      <input
        id={id}
        className="cfg-input cfg-number"
        type="number"
        inputMode="decimal"
        value={draft.text}
        min={field?.min ?? field?.exclusiveMin}
        max={field?.max ?? field?.exclusiveMax}
        step={step}
        placeholder={field?.nullable ? 'none' : spec.hasDefault ? String(spec.defaultValue) : ''}
        aria-label={label}
        aria-invalid={invalid || undefined}
        aria-describedby={invalid ? errorId : undefined}
        data-testid={TID.configField}
        data-path={pathText(path)}
        onChange={(e) => onChange(e.target.value)}
      />
      <FieldErrors path={path} local={local} id={errorId} />
    </>
  )
}
