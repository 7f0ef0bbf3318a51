import { useCallback, useMemo, useRef, useState } from 'react'
import {
  currentWorkingConfig,
  useConfigCatalog,
  useDeferredRunSummary,
  useLabStore,
} from '../../../store/index.ts'
import type { RunView, WireStrategy } from '../../../store/index.ts'
import { listAt, moveItem, removeItem } from '../../../store/index.ts'
import { useEditor } from './editorContext.ts'
import { FieldErrors } from './FieldErrors.tsx'
import { defaultsFromSchema } from './schemaFields.ts'
import { StepCard, type StepOutcome } from './StepCard.tsx'
import { TID } from '../../testids.ts'

const CHANGING = new Set(['exclude', 'stub', 'trim', 'insert'])

function outcomesOf(summary: RunView | null): Map<number, StepOutcome> {
  const out = new Map<number, StepOutcome>()
  if (!summary) return out
  const changes = new Map<number, number>()
  const d = summary.decisions
  // Decisions come as columns: which kind indexes are changes, then one pass over the steps.
  const changing = d.kinds.map((k) => CHANGING.has(k))
  for (let i = 0; i < d.length; i++) {
    if (!changing[d.kind[i] ?? 0]) continue
    const step = d.step[i] ?? 0
    changes.set(step, (changes.get(step) ?? 0) + 1)
  }
  for (const s of summary.steps) {
    out.set(s.index, { status: s.status, why: s.why, changes: changes.get(s.index) ?? 0 })
  }
  return out
}

/** A new step: the strategy's defaults (what `{}` validates to), or the defaults its schema states. */
function newStep(strategy: WireStrategy): Record<string, unknown> {
  const params = strategy.defaults ?? defaultsFromSchema(strategy.paramsSchema)
  return { strategy: strategy.id, enabled: true, params }
}

function AddStep({
  strategies,
  onAdd,
}: {
  readonly strategies: readonly WireStrategy[]
  readonly onAdd: (s: WireStrategy) => void
}) {
  const [choice, setChoice] = useState(strategies[0]?.id ?? '')
  const picked = strategies.find((s) => s.id === choice)
  return (
    <div className="cfg-row cfg-add">
      <label className="cfg-sub" htmlFor="cfg-add-strategy">
        Add step
      </label>
      <select
        id="cfg-add-strategy"
        className="select cfg-select"
        value={choice}
        data-testid={TID.configAddStrategy}
        onChange={(e) => setChoice(e.target.value)}
      >
        {strategies.map((s) => (
          <option key={s.id} value={s.id}>
            {s.label} ({s.id})
          </option>
        ))}
      </select>
      <button
        type="button"
        className="button"
        disabled={!picked}
        data-testid={TID.configAddStep}
        onClick={() => picked && onAdd(picked)}
      >
        Add
      </button>
    </div>
  )
}

/** The ordered steps: one card each, reorderable from the keyboard, plus "add a step". */
export function PipelineEditor() {
  const { config, update } = useEditor()
  const lab = useLabStore()
  const catalog = useConfigCatalog()
  const summary = useDeferredRunSummary()
  const listRef = useRef<HTMLOListElement>(null)
  const steps = listAt(config, ['pipeline'])
  const outcomes = useMemo(() => outcomesOf(summary), [summary])
  const byId = useMemo(() => new Map((catalog?.strategies ?? []).map((s) => [s.id, s])), [catalog])

  // Stable, reading the steps at call time (as `update` does): new callbacks on every keystroke
  // would re-render every memoised step card.
  const onMove = useCallback(
    (from: number, to: number) => {
      update(['pipeline'], moveItem(listAt(currentWorkingConfig(lab), ['pipeline']), from, to))
      // Keep the focus on the moved step, so repeated ↑/↓ presses keep moving the same one.
      const which = to < from ? TID.configStepUp : TID.configStepDown
      requestAnimationFrame(() => {
        const card = listRef.current?.querySelector(
          `[data-testid="${TID.configStep}"][data-index="${to}"]`,
        )
        const button = card?.querySelector<HTMLButtonElement>(
          `[data-testid="${which}"]:not(:disabled)`,
        )
        const fallback = card?.querySelector<HTMLButtonElement>(
          '.cfg-step-actions button:not(:disabled)',
        )
        ;(button ?? fallback)?.focus()
      })
    },
    [update, lab],
  )
  const onRemove = useCallback(
    (index: number) =>
      update(['pipeline'], removeItem(listAt(currentWorkingConfig(lab), ['pipeline']), index)),
    [update, lab],
  )
  const onAdd = (strategy: WireStrategy) => update(['pipeline'], [...steps, newStep(strategy)])

  return (
    <section className="cfg-group" aria-label="Pipeline">
      <h3 className="subhead">
        Pipeline · {steps.length} {steps.length === 1 ? 'step' : 'steps'}, in order
      </h3>
      <FieldErrors path={['pipeline']} />
      {steps.length === 0 ? (
        <p className="hint">No steps: nothing is compacted (except by the fallback).</p>
      ) : null}
      <ol className="cfg-steps" ref={listRef}>
        {steps.map((step, i) => {
          const id =
            typeof step === 'object' && step !== null && 'strategy' in step
              ? String(step.strategy)
              : ''
          return (
            <StepCard
              key={i}
              index={i}
              count={steps.length}
              step={step}
              strategy={byId.get(id)}
              outcome={outcomes.get(i)}
              onMove={onMove}
              onRemove={onRemove}
            />
          )
        })}
      </ol>
      {catalog ? <AddStep strategies={catalog.strategies} onAdd={onAdd} /> : null}
    </section>
  )
}
