import { useId } from 'react'
import { getIn, isRecord, pathText, type Path } from '../../../store/index.ts'
import {
  amountSpec,
  CONDITION_LABELS,
  isTargetKind,
  startValue,
  TARGET_KINDS,
} from './conditions.ts'
import { useEditor } from './editorContext.ts'
import { FieldErrors } from './FieldErrors.tsx'
import { NumberInput } from './NumberInput.tsx'
import { TID } from '../../testids.ts'

/** Where a step (or the fallback) stops: under a token count or a window fraction, or no target. */
export function TargetEditor({
  path,
  label = 'Target',
}: {
  readonly path: Path
  readonly label?: string
}) {
  const { config, update } = useEditor()
  const id = useId()
  const target = getIn(config, path)
  const t = isRecord(target) ? target : null
  const kind = t && isTargetKind(t.kind) ? t.kind : 'none'
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
          const next = e.target.value
          if (!isTargetKind(next)) update(path, undefined)
          else
            update(path, {
              kind: next,
              under: next === 'window_fraction' ? 0.6 : startValue('tokens'),
            })
        }}
      >
        <option value="none">none (run to the end)</option>
        {TARGET_KINDS.map((k) => (
          <option key={k} value={k}>
            under {CONDITION_LABELS[k]}
          </option>
        ))}
      </select>
      {t && kind !== 'none' ? (
        <div className="cfg-control">
          <NumberInput
            path={[...path, 'under']}
            spec={amountSpec(kind, 'under')}
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
