import { useId } from 'react'
import type { Path } from '../../../store/index.ts'
import { getIn, pathText } from '../../../store/index.ts'
import { useEditor } from './editorContext.ts'
import { FieldErrors } from './FieldErrors.tsx'
import { SchemaFields } from './ParamField.tsx'
import type { FieldSpec } from './schemaFields.ts'
import { TargetEditor } from './TargetEditor.tsx'
import { TID } from '../../testids.ts'

interface ObjectFormProps {
  readonly title: string
  readonly hint: string
  readonly path: Path
  readonly specs: readonly FieldSpec[]
}

function ObjectForm({ title, hint, path, specs }: ObjectFormProps) {
  return (
    <section className="cfg-group" aria-label={title}>
      <h3 className="subhead">
        {title} <span className="hint">· {hint}</span>
      </h3>
      <SchemaFields base={path} specs={specs} />
      <FieldErrors path={path} />
    </section>
  )
}

/** The model window: its size, the reply's reserve and a safety buffer. */
export function WindowForm({ specs }: { readonly specs: readonly FieldSpec[] }) {
  return (
    <ObjectForm
      title="Window"
      hint="usable = context − reserved output − buffer"
      path={['window']}
      specs={specs}
    />
  )
}

/** What no strategy may touch. */
export function ProtectionsForm({ specs }: { readonly specs: readonly FieldSpec[] }) {
  return (
    <ObjectForm
      title="Protections"
      hint="never modified by any step"
      path={['protections']}
      specs={specs}
    />
  )
}

function Check({ path, label }: { readonly path: Path; readonly label: string }) {
  const { config, update } = useEditor()
  const id = useId()
  return (
    <div className="cfg-field">
      <label className="cfg-label" htmlFor={id}>
        {label}
      </label>
      <div className="cfg-control">
        <input
          id={id}
          type="checkbox"
          checked={getIn(config, path) === true}
          data-testid={TID.configField}
          data-path={pathText(path)}
          onChange={(e) => update(path, e.target.checked)}
        />
        <FieldErrors path={path} />
      </div>
    </div>
  )
}

/** The last resort after the pipeline: drop the oldest groups until the target (or the window) fits. */
export function FallbackForm() {
  const { config } = useEditor()
  return (
    <section className="cfg-group" aria-label="Fallback">
      <h3 className="subhead">
        Fallback <span className="hint">· drops oldest groups if the pipeline was not enough</span>
      </h3>
      <div className="cfg-fields">
        <Check path={['fallback', 'enabled']} label="enabled" />
        <Check path={['fallback', 'strict']} label="strict" />
      </div>
      <TargetEditor
        path={['fallback', 'target']}
        target={getIn(config, ['fallback', 'target'])}
        label="Fallback target"
      />
      <FieldErrors path={['fallback']} />
    </section>
  )
}
