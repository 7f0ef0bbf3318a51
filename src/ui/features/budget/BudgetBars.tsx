import type { BudgetCategories, RunView } from '../../../store/index.ts'
import { formatCount } from '../../lib/format.ts'
import { TID } from '../../testids.ts'
import { barDescription, barScale, barSegments, usedTokens, type Segment } from './budgetModel.ts'

const SEGMENT_TID: Record<Segment['kind'], string> = {
  used: TID.budgetSegment,
  free: TID.budgetFree,
  buffer: TID.budgetBuffer,
  reserved: TID.budgetReserved,
}

function segmentClass(segment: Segment): string {
  return segment.kind === 'used' ? `seg cat-${segment.key}` : `seg seg-${segment.kind}`
}

interface BarProps {
  readonly name: 'before' | 'after'
  readonly budget: BudgetCategories
  readonly window: RunView['tokens']
  readonly scale: number
}

/** One stacked bar; the usable-window edge is a line, so overflow is visible as crossing it. */
function Bar({ name, budget, window, scale }: BarProps) {
  const segments = barSegments(budget, window, scale)
  const used = usedTokens(budget)
  const label = name === 'before' ? 'Before' : 'After'
  return (
    <div className="budget-row">
      <span className="budget-row-label">{label}</span>
      <div
        className="budget-bar"
        role="img"
        aria-label={barDescription(label, budget, window)}
        data-testid={name === 'before' ? TID.budgetBarBefore : TID.budgetBarAfter}
        data-used={used}
      >
        {segments.map((segment) => (
          <span
            key={segment.key}
            className={segmentClass(segment)}
            style={{ width: `${segment.fraction * 100}%` }}
            title={`${segment.label}: ${formatCount(segment.tokens)} tokens`}
            data-testid={SEGMENT_TID[segment.kind]}
            data-category={segment.kind === 'used' ? segment.key : undefined}
            data-tokens={segment.tokens}
          />
        ))}
        <span
          className="budget-usable-edge"
          style={{ left: `${(window.usable / scale) * 100}%` }}
          aria-hidden="true"
        />
      </div>
      <span className="budget-row-total num">{formatCount(used)}</span>
    </div>
  )
}

/** Before and after on one scale, reserved output hatched after the usable window. */
export function BudgetBars({ summary }: { readonly summary: RunView }) {
  const { before, after } = summary.budget
  const scale = barScale(summary.tokens, [before, after])
  return (
    <div className="budget-bars">
      <Bar name="before" budget={before} window={summary.tokens} scale={scale} />
      <Bar name="after" budget={after} window={summary.tokens} scale={scale} />
      <div className="budget-key" aria-hidden="true">
        <span>
          <i className="swatch seg-free" /> free
        </span>
        {summary.tokens.buffer > 0 ? (
          <span>
            <i className="swatch seg-buffer" /> safety buffer
          </span>
        ) : null}
        <span>
          <i className="swatch seg-reserved" /> reserved output (set aside, not used)
        </span>
        <span>
          <i className="swatch edge" /> end of usable window
        </span>
      </div>
    </div>
  )
}
