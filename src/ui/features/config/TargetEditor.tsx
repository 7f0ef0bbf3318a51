import { useId } from 'react'
import { isRecord, pathText, useConfigCatalog, type Path } from '../../../store/index.ts'
import { amountSpec, kindLabel, startValue, targetKind } from './conditions.ts'
import { useFieldApi } from './editorContext.ts'
import { FieldErrors } from './FieldErrors.tsx'
import { NumberInput } from './NumberInput.tsx'
import { TID } from '../../testids.ts'

/** Where a step (or the fallback) stops: under a token count or a window fraction, or no target. */
export function TargetEditor({
  path,
  target,
  label = 'Target',
}: {
  readonly path: Path
  /** The config's value at `path` (passed in: a step card re-renders only when its step changes). */
  readonly target: unknown
  readonly label?: string
}) {
  const { update } = useFieldApi()
  const id = useId()
  const t = isRecord(target) ? target : null
  const model = useConfigCatalog()?.model
  const kinds = model?.targets ?? []
  const current = model && t ? targetKind(model, t.kind) : undefined
  const kind = current?.kind ?? 'none'
  return (
    <div className="cfg-row">
      <label className="cfg-sub" htmlFor={`${id}-kind`}>
        {label}
      </label>
      <select
        id={`${id}-kind`}
        className="select cfg-select"
        value={kind}
        data-testid={TID.configField}
        data-path={pathText([...path, 'kind'])}
        onChange={(e) => {
          const next = kinds.find((k) => k.kind === e.target.value)
          if (!next) update(path, undefined)
          else
            update(path, {
              kind: next.kind,
              // A fraction target well under the trigger's usual 0.8, so the step has work to do.
              under: next.kind === 'window_fraction' ? 0.6 : startValue(next),
            })
        }}
      >
        <option value="none">none (run to the end)</option>
        {kinds.map((k) => (
          <option key={k.kind} value={k.kind}>
            under {kindLabel(k.kind)}
          </option>
        ))}
      </select>
      {t && current ? (
        <div className="cfg-control">
          <NumberInput
            path={[...path, 'under']}
            spec={amountSpec(current)}
            value={t.under}
            id={id}
            label={`${label} under`}
          />
        </div>
      ) : null}
      <FieldErrors path={path} />
    </div>
  )
}
