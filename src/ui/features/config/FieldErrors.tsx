import { pathText, type Path } from '../../../store/index.ts'
import { useFieldApi } from './editorContext.ts'
import { TID } from '../../testids.ts'

interface FieldErrorsProps {
  readonly path: Path
  /** The form's own check while typing; the worker's issues win when there are any. */
  readonly local?: string | null
  readonly id?: string
}

/** The problems of one field, right under it (role=alert only for the worker's verdict). */
export function FieldErrors({ path, local, id }: FieldErrorsProps) {
  const issues = useFieldApi().issuesAt(path)
  const messages = issues.length > 0 ? issues.map((i) => i.message) : local ? [local] : []
  if (messages.length === 0) return null
  return (
    <div
      className="cfg-field-error"
      id={id}
      data-testid={TID.configFieldError}
      data-path={pathText(path)}
      role={issues.length > 0 ? 'alert' : undefined}
    >
      {messages.map((m, i) => (
        <div key={i}>{m}</div>
      ))}
    </div>
  )
}
