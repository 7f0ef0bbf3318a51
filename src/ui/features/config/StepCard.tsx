import { memo, useMemo, useState } from 'react'
import type { WireStrategy } from '../../../store/index.ts'
import { isRecord, type Path } from '../../../store/index.ts'
import { useFieldApi } from './editorContext.ts'
import { FieldErrors } from './FieldErrors.tsx'
import { SchemaFields } from './ParamField.tsx'
import { objectFields } from './schemaFields.ts'
import { TargetEditor } from './TargetEditor.tsx'
import { TriggerEditor } from './TriggerEditor.tsx'
import { TID } from '../../testids.ts'

/** What the step did in the latest run (from the run summary). */
export interface StepOutcome {
  readonly status: string
  readonly why: string
  /** Decisions that changed something (exclude, stub, trim, insert). */
  readonly changes: number
}

interface StepCardProps {
  readonly index: number
  readonly count: number
  readonly step: unknown
  readonly strategy: WireStrategy | undefined
  readonly outcome: StepOutcome | undefined
  readonly onMove: (from: number, to: number) => void
  readonly onRemove: (index: number) => void
}

function Outcome({ outcome }: { readonly outcome: StepOutcome | undefined }) {
  if (!outcome) return null
  const tone =
    outcome.status === 'ran' ? 'high' : outcome.status === 'failed_open' ? 'low' : 'neutral'
  return (
    <p
      className="cfg-outcome"
      data-testid={TID.configStepOutcome}
      data-status={outcome.status}
      data-changes={outcome.changes}
    >
      <span className={`pill ${tone}`}>{outcome.status.replace('_', ' ')}</span>{' '}
      {outcome.status === 'ran'
        ? `${outcome.changes} ${outcome.changes === 1 ? 'change' : 'changes'} · `
        : ''}
      <span className="hint">{outcome.why}</span>
    </p>
  )
}

/**
 * One pipeline step: what it is, whether it runs, its parameters, trigger and target. Memoised:
 * an edit elsewhere leaves the other steps' cards (and their selects, which React updates option
 * by option) alone.
 */
export const StepCard = memo(function StepCard({
  index,
  count,
  step,
  strategy,
  outcome,
  onMove,
  onRemove,
}: StepCardProps) {
  const { update, issuesAt } = useFieldApi()
  const [paramsOpen, setParamsOpen] = useState(false)
  const base: Path = ['pipeline', index]
  const s = isRecord(step) ? step : {}
  const id = typeof s.strategy === 'string' ? s.strategy : '?'
  const enabled = s.enabled !== false
  const specs = useMemo(() => objectFields(strategy?.paramsSchema), [strategy])
  const paramsPath: Path = [...base, 'params']
  // Open the parameters by themselves when the worker found a problem inside them.
  const paramIssues = specs.some((f) => issuesAt([...paramsPath, f.key]).length > 0)
  const n = index + 1
  return (
    <li
      className={enabled ? 'cfg-step' : 'cfg-step cfg-step-off'}
      data-testid={TID.configStep}
      data-index={index}
      data-strategy={id}
      data-enabled={String(enabled)}
    >
      <header className="cfg-step-head">
        <span className="cfg-step-index" aria-hidden>
          {n}
        </span>
        <div className="cfg-step-title">
          <b>{strategy?.label ?? id}</b> <code className="cfg-code">{id}</code>
          {strategy ? <span className="hint"> · {strategy.source}</span> : null}
        </div>
        <label className="cfg-toggle">
          <input
            type="checkbox"
            checked={enabled}
            data-testid={TID.configStepEnabled}
            aria-label={`Step ${n} enabled`}
            onChange={(e) => update([...base, 'enabled'], e.target.checked)}
          />
          enabled
        </label>
        <div className="cfg-step-actions">
          <button
            type="button"
            className="button ghost cfg-icon"
            aria-label={`Move step ${n} up`}
            title="Move up"
            disabled={index === 0}
            data-testid={TID.configStepUp}
            onClick={() => onMove(index, index - 1)}
          >
            ↑
          </button>
          <button
            type="button"
            className="button ghost cfg-icon"
            aria-label={`Move step ${n} down`}
            title="Move down"
            disabled={index === count - 1}
            data-testid={TID.configStepDown}
            onClick={() => onMove(index, index + 1)}
          >
            ↓
          </button>
          <button
            type="button"
            className="button ghost cfg-icon"
            aria-label={`Remove step ${n}`}
            title="Remove step"
            data-testid={TID.configStepRemove}
            onClick={() => onRemove(index)}
          >
            ✕
          </button>
        </div>
      </header>
      <Outcome outcome={outcome} />
      {strategy ? (
        <details className="cfg-about">
          <summary>About this strategy</summary>
          <p className="hint">{strategy.description}</p>
        </details>
      ) : null}
      <FieldErrors path={base} />
      <FieldErrors path={[...base, 'strategy']} />
      <FieldErrors path={[...base, 'enabled']} />
      <TriggerEditor base={base} trigger={s.trigger} />
      <TargetEditor path={[...base, 'target']} target={s.target} />
      <details
        className="cfg-params"
        open={paramsOpen || paramIssues}
        onToggle={(e) => setParamsOpen(e.currentTarget.open)}
      >
        <summary>Parameters ({specs.length})</summary>
        {specs.length > 0 ? (
          <SchemaFields base={paramsPath} specs={specs} />
        ) : (
          <p className="hint">none</p>
        )}
      </details>
      <FieldErrors path={paramsPath} />
    </li>
  )
})
