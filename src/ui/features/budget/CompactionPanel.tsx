import {
  useLayoutActions,
  usePanelLayout,
  useRunRisk,
  useRunStatus,
  useRunSummary,
} from '../../../store/index.ts'
import type { RunView } from '../../../store/index.ts'
import { Section } from '../../components/Section.tsx'
import { formatCount } from '../../lib/format.ts'
import { TID } from '../../testids.ts'
import { PresetPicker } from '../config/PresetPicker.tsx'
import { RiskFact } from '../risk/RiskFact.tsx'
import { ExportActions } from '../export/ExportActions.tsx'
import { BudgetBars } from './BudgetBars.tsx'
import { CostLine } from './CostLine.tsx'
import { BudgetTable } from './BudgetTable.tsx'
import { formatChange } from './budgetModel.ts'
import { RunStatusLine } from './RunStatusLine.tsx'
import './budget.css'

/** How the figures were obtained: never an estimate without saying so (SPEC §4). */
function pricing(summary: RunView): string {
  const counted =
    summary.tokenizer === 'estimate'
      ? 'chars/4 estimate'
      : summary.exact
        ? `counted with ${summary.tokenizer}`
        : `counted with ${summary.tokenizer} (long runs approximated)`
  const rec = summary.accounting.reconciliation
  // The prefix in force at the end of the session (steps included): the budget's inferred row.
  const prefix = summary.budget.before['inferred'] ?? rec.prefixTokens
  if (rec.source === 'reconciled')
    return `next call's context, reconciled with reported usage (${counted}; hidden prefix ${formatCount(prefix)}, ×${rec.scale.toFixed(2)})`
  return `next call's context, ${counted}, estimated — nothing reported to reconcile with`
}

function Headline({ summary }: { readonly summary: RunView }) {
  const { before, after } = summary.tokens
  return (
    <span className="total budget-headline">
      <span
        className="total-value"
        data-testid={TID.budgetHeadline}
        data-config={summary.configName}
        data-before={before}
        data-after={after}
        data-source={summary.accounting.reconciliation.source}
        data-tokenizer={summary.tokenizer}
      >
        {summary.tokenizer === 'estimate' ? '≈ ' : ''}
        {formatCount(before)} → {formatCount(after)} tokens ({formatChange(before, after)})
      </span>
    </span>
  )
}

/** The usable window and how the figures were priced; the no-change reason when there is one. */
function Window({ summary }: { readonly summary: RunView }) {
  const { window, reservedOutput, buffer, usable } = summary.tokens
  return (
    <div className="budget-window">
      <span className="hint" data-testid={TID.budgetUsable} data-usable={usable}>
        usable window {formatCount(usable)} = {formatCount(window)} window −{' '}
        {formatCount(reservedOutput)} reserved output
        {buffer > 0 ? ` − ${formatCount(buffer)} buffer` : ''} · {pricing(summary)}
      </span>
      {summary.noChange ? (
        // Computed by the engine (explain.ts): a run that changed nothing says why, right here.
        <span className="hint" data-testid={TID.budgetNoChange}>
          {summary.noChange}
        </span>
      ) : null}
    </div>
  )
}

function Facts({ summary }: { readonly summary: RunView }) {
  const failing = summary.invariants.checks.filter((c) => !c.ok).map((c) => c.id)
  // A first-round summary: the idempotence check is still running (it follows in `settle`).
  const checking = summary.settling ? ' · checking idempotence…' : ''
  const ok = summary.invariants.ok
  return (
    <span className="budget-facts">
      <span
        className={ok ? (checking ? 'pill' : 'pill high') : 'pill low'}
        data-testid={TID.invariants}
        data-ok={ok && checking ? 'pending' : String(ok)}
      >
        {ok
          ? checking
            ? 'invariants hold so far'
            : 'all invariants hold'
          : `invariants failing: ${failing.join(', ') || 'unknown'}`}
        {checking}
      </span>
      <span className="hint" data-testid={TID.changeCount} data-value={summary.changes}>
        {formatCount(summary.changes)} {summary.changes === 1 ? 'change' : 'changes'}
      </span>
      <RunRiskFact />
    </span>
  )
}

/** The run's risk follows its summary: "checking" until it is in (the budget does not wait). */
function RunRiskFact() {
  const risk = useRunRisk()
  return risk ? (
    <RiskFact risk={risk} />
  ) : (
    <span className="risk-fact hint pending" data-testid={TID.riskUsedLater} data-pending="true">
      checking what removed content is used later…
    </span>
  )
}

function ExpandToggle() {
  const { budgetExpanded } = usePanelLayout()
  const { toggleBudgetExpanded } = useLayoutActions()
  return (
    <button
      type="button"
      className="button ghost budget-expand"
      aria-expanded={budgetExpanded}
      aria-controls="budget-more"
      onClick={toggleBudgetExpanded}
      data-testid={TID.budgetExpand}
      title="Show the budget's table, window and cost (x)"
    >
      {budgetExpanded ? 'Less ▴' : 'Budget table ▾'}
    </button>
  )
}

/**
 * The compaction bar on top of every view: preset, run status, the headline before → after and
 * the two bars on one compact band; it expands (remembered) into the window, cost and the
 * per-category table. The folded part stays in the page (hidden), so its figures are one
 * toggle away and never recomputed.
 */
export function CompactionPanel() {
  const summary = useRunSummary()
  const status = useRunStatus()
  const { budgetExpanded } = usePanelLayout()
  return (
    <Section
      title={
        <>
          Compaction
          {summary ? <Headline summary={summary} /> : null}
          {summary ? <Facts summary={summary} /> : null}
        </>
      }
      aside={
        <>
          <RunStatusLine />
          <PresetPicker />
          <ExportActions />
          <ExpandToggle />
        </>
      }
      testId={TID.compaction}
      className={status === 'running' && summary ? 'budget stale' : 'budget'}
    >
      {summary ? (
        <>
          <BudgetBars summary={summary} />
          <div className="budget-more" id="budget-more" hidden={!budgetExpanded}>
            <Window summary={summary} />
            <CostLine />
            <BudgetTable summary={summary} />
          </div>
        </>
      ) : null}
    </Section>
  )
}
