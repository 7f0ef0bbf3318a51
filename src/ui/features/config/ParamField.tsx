import { useId } from 'react'
import { getIn, pathText, type Path } from '../../../store/index.ts'
import { useEditor } from './editorContext.ts'
import { FieldErrors } from './FieldErrors.tsx'
import { NumberInput } from './NumberInput.tsx'
import { checkValue, type FieldSpec } from './schemaFields.ts'
import { JsonInput, ListInput } from './TextInputs.tsx'
import { TID } from '../../testids.ts'

interface FieldProps {
  readonly path: Path
  readonly spec: FieldSpec
}

/** The input for one schema field, chosen by its descriptor. */
function Control({ path, spec, id }: FieldProps & { readonly id: string }) {
  const { config, update } = useEditor()
  const value = getIn(config, path)
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

/** One labelled row: the key (its description as the tooltip and a hint), the input, its errors. */
export function ParamField({ path, spec }: FieldProps) {
  const id = useId()
  return (
    <div className={spec.field.kind === 'object' ? 'cfg-field cfg-field-wide' : 'cfg-field'}>
      <label className="cfg-label" htmlFor={id} title={spec.description || undefined}>
        {spec.key}
        {spec.required ? <span className="cfg-required"> *</span> : null}
      </label>
      <div className="cfg-control">
        <Control path={path} spec={spec} id={id} />
      </div>
    </div>
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
  return (
    <div className="cfg-fields">
      {specs.map((spec) => (
        <ParamField key={spec.key} path={[...base, spec.key]} spec={spec} />
      ))}
    </div>
  )
}
