import { memo, useId } from 'react'
import { getIn, pathText, type Path } from '../../../store/index.ts'
import { useEditor, useFieldApi } from './editorContext.ts'
import { FieldErrors } from './FieldErrors.tsx'
import { NumberInput } from './NumberInput.tsx'
import { checkValue, type FieldSpec } from './schemaFields.ts'
import { JsonInput, ListInput } from './TextInputs.tsx'
import { TID } from '../../testids.ts'

interface FieldProps {
  readonly path: Path
  readonly spec: FieldSpec
  /** The config's value at `path` (read by the list, so the field can skip unchanged renders). */
  readonly value: unknown
}

/** The input for one schema field, chosen by its descriptor. */
function Control({ path, spec, value, id }: FieldProps & { readonly id: string }) {
  const { update } = useFieldApi()
  const d = spec.field
  const common = { 'data-testid': TID.configField, 'data-path': pathText(path), id }
  switch (d.kind) {
    case 'number':
      return <NumberInput path={path} spec={spec} value={value} id={id} />
    case 'boolean':
      return (
        <>
          <input
            {...common}
            type="checkbox"
            checked={value === undefined ? spec.defaultValue === true : value === true}
            onChange={(e) => update(path, e.target.checked)}
          />
          <FieldErrors path={path} />
        </>
      )
    case 'enum': {
      const current =
        typeof value === 'string' ? value : value === null ? '' : String(spec.defaultValue ?? '')
      return (
        <>
          <select
            {...common}
            className="select cfg-select"
            value={current}
            onChange={(e) =>
              update(path, e.target.value === '' && d.nullable ? null : e.target.value)
            }
          >
            {d.nullable ? <option value="">(none)</option> : null}
            {d.options.map((o) => (
              <option key={o} value={o}>
                {o}
              </option>
            ))}
          </select>
          <FieldErrors path={path} local={checkValue(spec, value)} />
        </>
      )
    }
    case 'string':
      return (
        <>
          <input
            {...common}
            className="cfg-input"
            type="text"
            value={typeof value === 'string' ? value : ''}
            placeholder={d.nullable ? 'none' : ''}
            onChange={(e) => update(path, e.target.value)}
          />
          <FieldErrors path={path} local={checkValue(spec, value)} />
        </>
      )
    case 'stringList':
      return <ListInput path={path} spec={spec} value={value} id={id} />
    case 'json':
      return <JsonInput path={path} spec={spec} value={value} id={id} />
    case 'object':
      return (
        <fieldset className="cfg-fieldset" id={id}>
          <SchemaFields base={path} specs={d.fields} />
          <FieldErrors path={path} />
        </fieldset>
      )
    default: {
      const never: never = d
      return never
    }
  }
}

/**
 * One labelled row: the key (its description as the tooltip and a hint), the input, its errors.
 * Memoised: a keystroke in one field re-renders that field, not the ~90 others (an object field,
 * whose nested fields read the config themselves, always re-renders).
 */
export const ParamField = memo(function ParamField({ path, spec, value }: FieldProps) {
  const id = useId()
  return (
    <div className={spec.field.kind === 'object' ? 'cfg-field cfg-field-wide' : 'cfg-field'}>
      <label className="cfg-label" htmlFor={id} title={spec.description || undefined}>
        {spec.key}
        {spec.required ? <span className="cfg-required"> *</span> : null}
      </label>
      <div className="cfg-control">
        <Control path={path} spec={spec} value={value} id={id} />
      </div>
    </div>
  )
}, sameField)

function sameField(a: FieldProps, b: FieldProps): boolean {
  return (
    a.spec === b.spec &&
    a.spec.field.kind !== 'object' &&
    Object.is(a.value, b.value) &&
    pathText(a.path) === pathText(b.path)
  )
}

/** A field per property of an object schema, at `base` in the config. */
export function SchemaFields({
  base,
  specs,
}: {
  readonly base: Path
  readonly specs: readonly FieldSpec[]
}) {
  const { config } = useEditor()
  return (
    <div className="cfg-fields">
      {specs.map((spec) => {
        const path = [...base, spec.key]
        return <ParamField key={spec.key} path={path} spec={spec} value={getIn(config, path)} />
      })}
    </div>
  )
}
