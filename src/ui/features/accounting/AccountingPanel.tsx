import { useState, type FormEvent } from 'react'
import {
  currentWorkingConfig,
  useLabStore,
  type LabStore,
  useConfigActions,
  useDeferredRunSummary,
  useWorkingConfig,
} from '../../../store/index.ts'
import type { RunView } from '../../../store/index.ts'
import { Section } from '../../components/Section.tsx'
import { formatCount } from '../../lib/format.ts'
import { groupAtMessage } from '../../lib/groups.ts'
import { TID } from '../../testids.ts'
import { getIn, setIn } from '../../../store/index.ts'
import { overrideValue, percent, sourceLabel } from './accountingModel.ts'
import { PricesForm } from './PricesForm.tsx'
import './accounting.css'

type Reconciliation = RunView['accounting']['reconciliation']

/** Open the group that holds message `index` (a flagged or ignored call) in the drawer. */
function openCall(lab: LabStore, summary: RunView, index: number) {
  const { firstMessage, messageCounts, ids } = summary.groups
  const at = groupAtMessage(firstMessage, messageCounts, index)
  const id = at === null ? undefined : ids[at]
  if (id !== undefined) lab.getState().selectGroup(id, { open: true })
}

function Fit({ rec }: { readonly rec: Reconciliation }) {
  return (
    <dl className="acct-fit">
      <dt>Hidden prefix</dt>
      <dd className="num">
        {formatCount(rec.prefixTokens)} <span className="hint">({rec.prefixFrom})</span>
        {rec.subagentPrefixTokens !== undefined ? (
          <span className="hint"> · sub-agents {formatCount(rec.subagentPrefixTokens)}</span>
        ) : null}
      </dd>
      <dt>Scale on our counts</dt>
      <dd className="num">
        ×{rec.scale.toFixed(3)} <span className="hint">({rec.scaleFrom})</span>
      </dd>
      <dt>Calls fitted</dt>
      <dd className="num">
        {formatCount(rec.calls)} used · {formatCount(rec.dropped)} ignored
      </dd>
      <dt>Error vs reported</dt>
      <dd className="num">
        median {percent(rec.medianAbsError)} · p90 {percent(rec.p90AbsError)}
      </dd>
      <dt>Reasoning rule</dt>
      <dd>{rec.rules}</dd>
    </dl>
  )
}

/** The user's own figures for the prefix and the scale: written into the config's `accounting`. */
function Overrides({ rec }: { readonly rec: Reconciliation }) {
  const lab = useLabStore()
  const config = useWorkingConfig()
  const { setConfig } = useConfigActions()
  const prefix = overrideValue(getIn(config, ['accounting', 'prefixTokens']))
  const scale = overrideValue(getIn(config, ['accounting', 'scale']))
  const [prefixText, setPrefixText] = useState(prefix === null ? '' : String(prefix))
  const [scaleText, setScaleText] = useState(scale === null ? '' : String(scale))
  const apply = (event: FormEvent) => {
    event.preventDefault()
    const p = prefixText.trim() === '' ? undefined : Number(prefixText)
    const s = scaleText.trim() === '' ? undefined : Number(scaleText)
    let next = setIn(currentWorkingConfig(lab), ['accounting', 'prefixTokens'], p)
    next = setIn(next, ['accounting', 'scale'], s)
    // An empty section means "fit both": drop it so the config stays as it was.
    if (p === undefined && s === undefined) next = setIn(next, ['accounting'], undefined)
    setConfig(next, { immediate: true })
  }
  return (
    <form className="acct-overrides" onSubmit={apply} aria-label="Override the fitted figures">
      <label className="inline-field">
        <span className="field-label">Prefix tokens</span>
        <input
          className="cfg-input num"
          inputMode="numeric"
          placeholder={`fitted: ${rec.prefixTokens}`}
          value={prefixText}
          onChange={(e) => setPrefixText(e.target.value)}
          data-testid={TID.reconciliationPrefix}
        />
      </label>
      <label className="inline-field">
        <span className="field-label">Scale</span>
        <input
          className="cfg-input num"
          inputMode="decimal"
          placeholder={`fitted: ${rec.scale.toFixed(3)}`}
          value={scaleText}
          onChange={(e) => setScaleText(e.target.value)}
          data-testid={TID.reconciliationScale}
        />
      </label>
      <button type="submit" className="button">
        Apply
      </button>
      <span className="hint">empty = fitted; saved in the config (exports and loads with it)</span>
    </form>
  )
}

function Flagged({ summary, rec }: { readonly summary: RunView; readonly rec: Reconciliation }) {
  const lab = useLabStore()
  if (rec.flaggedCalls.length === 0) return null
  return (
    <details className="acct-list" data-testid={TID.reconciliationFlagged} open>
      <summary>
        {formatCount(rec.flagged.length)} call{rec.flagged.length === 1 ? '' : 's'} more than 10 %
        from the reported figure
      </summary>
      <ul>
        {rec.flaggedCalls.map((f) => (
          <li key={f.index}>
            <button
              type="button"
              className="button ghost acct-link"
              onClick={() => openCall(lab, summary, f.index)}
              data-index={f.index}
            >
              message #{f.index}
            </button>{' '}
            <span className="num">
              {formatCount(f.estimate)} reconstructed vs {formatCount(f.reported)} reported (
              {f.residual > 0 ? '+' : ''}
              {percent(f.residual)})
            </span>
            {f.thread !== 'main' ? <span className="hint"> · {f.thread}</span> : null}
          </li>
        ))}
      </ul>
    </details>
  )
}

function Ignored({ summary, rec }: { readonly summary: RunView; readonly rec: Reconciliation }) {
  const lab = useLabStore()
  if (rec.ignored.length === 0) return null
  return (
    <details className="acct-list" data-testid={TID.reconciliationIgnored}>
      <summary>
        {formatCount(rec.ignored.length)} reported figure{rec.ignored.length === 1 ? '' : 's'} not
        used by the fit
      </summary>
      <ul>
        {rec.ignored.slice(0, 100).map((x) => (
          <li key={`${x.call}-${x.index}`}>
            <button
              type="button"
              className="button ghost acct-link"
              onClick={() => openCall(lab, summary, x.index)}
            >
              message #{x.index}
            </button>{' '}
            {x.why}
          </li>
        ))}
      </ul>
    </details>
  )
}

/**
 * Where the figures come from: how each call's context was reconstructed and reconciled with the
 * usage the transcript reported, how far apart they are, which calls to look at, and the user's
 * own figures for what the log does not show.
 */
export function AccountingPanel() {
  const summary = useDeferredRunSummary()
  if (!summary) return null
  const { reconciliation: rec, figure } = summary.accounting
  return (
    <Section
      title="Accounting"
      testId={TID.reconciliation}
      aside={
        <span
          className={`pill ${rec.source === 'reconciled' ? 'high' : 'low'}`}
          data-testid={TID.reconciliationSource}
          data-source={rec.source}
          title={figure}
        >
          {sourceLabel(rec.source)}
        </span>
      }
    >
      <p className="hint acct-summary">{rec.summary}</p>
      <Fit rec={rec} />
      {rec.steps.length > 0 ? (
        <p className="hint">
          Hidden prefix changes {formatCount(rec.steps.length)}×:{' '}
          {rec.steps
            .slice(0, 6)
            .map((s) => `→ ${formatCount(s.prefixTokens)} at #${s.fromIndex}`)
            .join(', ')}
          {rec.steps.length > 6 ? ' …' : ''} (dotted lines on the timeline)
        </p>
      ) : null}
      <Flagged summary={summary} rec={rec} />
      <Ignored summary={summary} rec={rec} />
      <Overrides key={`${rec.prefixTokens}-${rec.scale}`} rec={rec} />
      <PricesForm key={summary.accounting.price?.name ?? 'none'} summary={summary} />
    </Section>
  )
}
