import { useId } from 'react'
import { isRecord, listAt, removeItem, useConfigCatalog, type Path } from '../../../store/index.ts'
import { amountSpec, conditionKind, kindLabel, startValue } from './conditions.ts'
import { useFieldApi } from './editorContext.ts'
import { FieldErrors } from './FieldErrors.tsx'
import { NumberInput } from './NumberInput.tsx'

interface ConditionRowProps {
  readonly path: Path
  readonly condition: unknown
  readonly onRemove: () => void
}

function ConditionRow({ path, condition, onRemove }: ConditionRowProps) {
  const { update } = useFieldApi()
  const id = useId()
  const model = useConfigCatalog()?.model
  const c = isRecord(condition) ? condition : {}
  const kinds = model?.conditions ?? []
  const current = model ? (conditionKind(model, c.kind) ?? kinds[0]) : undefined
  if (!current) return null
  const kind = current.kind
  return (
    <li className="cfg-condition">
      <select
        className="select cfg-select"
        aria-label="Condition"
        value={kind}
        onChange={(e) => {
          const next = kinds.find((k) => k.kind === e.target.value) ?? current
          update(path, { kind: next.kind, over: startValue(next) })
        }}
      >
        {kinds.map((k) => (
          <option key={k.kind} value={k.kind}>
            {kindLabel(k.kind)}
          </option>
        ))}
      </select>
      <label className="cfg-label" htmlFor={id}>
        over
      </label>
      <div className="cfg-control">
        <NumberInput path={[...path, 'over']} spec={amountSpec(current)} value={c.over} id={id} />
      </div>
      <button
        type="button"
        className="button ghost cfg-icon"
        aria-label="Remove condition"
        onClick={onRemove}
      >
        ✕
      </button>
      <FieldErrors path={path} />
    </li>
  )
}

/** When a step runs: any/all of a list of conditions, or always when it has no trigger. */
export function TriggerEditor({
  base,
  trigger,
}: {
  readonly base: Path
  /** The step's trigger (passed in: a step card re-renders only when its step changes). */
  readonly trigger: unknown
}) {
  const { update } = useFieldApi()
  // The schema's first condition kind (context tokens) is what "+ condition" adds.
  const first = useConfigCatalog()?.model.conditions[0]
  const path = [...base, 'trigger']
  if (!isRecord(trigger)) {
    return (
      <div className="cfg-row">
        <span className="cfg-sub">Trigger</span>
        <span className="hint">none — the step runs on every model call</span>
        <button
          type="button"
          className="button"
          onClick={() =>
            update(path, { mode: 'any', conditions: [{ kind: 'window_fraction', over: 0.8 }] })
          }
        >
          Add trigger
        </button>
      </div>
    )
  }
  const conditions = listAt(trigger, ['conditions'])
  const conditionsPath = [...path, 'conditions']
  const remove = (j: number) =>
    conditions.length > 1
      ? update(conditionsPath, removeItem(conditions, j))
      : update(path, undefined)
  return (
    <div className="cfg-trigger">
      <div className="cfg-row">
        <span className="cfg-sub">Trigger</span>
        <span className="hint">runs when</span>
        <select
          className="select cfg-select"
          aria-label="Trigger mode"
          value={trigger.mode === 'all' ? 'all' : 'any'}
          onChange={(e) => update([...path, 'mode'], e.target.value)}
        >
          <option value="any">any</option>
          <option value="all">all</option>
        </select>
        <span className="hint">of these hold</span>
        <button type="button" className="button ghost" onClick={() => update(path, undefined)}>
          Remove trigger
        </button>
      </div>
      <ul className="cfg-conditions">
        {conditions.map((condition, j) => (
          <ConditionRow
            key={j}
            path={[...conditionsPath, j]}
            condition={condition}
            onRemove={() => remove(j)}
          />
        ))}
      </ul>
      <FieldErrors path={path} />
      <FieldErrors path={conditionsPath} />
      <div className="cfg-row">
        <button
          type="button"
          className="button ghost"
          disabled={!first}
          onClick={() => {
            if (first)
              update(conditionsPath, [...conditions, { kind: first.kind, over: startValue(first) }])
          }}
        >
          + condition
        </button>
      </div>
    </div>
  )
}
