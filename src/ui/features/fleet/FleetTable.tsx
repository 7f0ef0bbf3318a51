import { useVirtualizer } from '@tanstack/react-virtual'
import { memo, useRef } from 'react'
import { FLEET_TID } from './fleetIds.ts'
import type { FleetLine, Sort, SortKey } from './fleetModel.ts'
import { count, pct, short, usd } from './format.ts'
import { openInWorkbench } from './fleetStore.ts'

export const FLEET_ROW_HEIGHT = 28

const COLUMNS: readonly { key: SortKey | null; label: string; title?: string }[] = [
  { key: 'name', label: 'Conversation' },
  { key: 'format', label: 'Format', title: 'the model in the tooltip' },
  { key: 'calls', label: 'Calls' },
  { key: 'before', label: 'Tokens', title: 'before → after at the last call, as compact reports' },
  { key: 'saved', label: 'Saved', title: 'share of the last call saved' },
  { key: 'peak', label: 'Peak', title: 'before → after: the largest context of any call' },
  { key: 'cost', label: 'Cost', title: 'USD of the session, before → after' },
  { key: 'first', label: '1st', title: 'call at which the config first changed something' },
  { key: null, label: 'Steps fired', title: 'strategy × calls at which it changed something' },
  { key: 'risk', label: 'Risk', title: 'removed, then used later · invariants' },
]

function firedText(fired: Readonly<Record<string, number>>): string {
  return Object.entries(fired)
    .sort((a, b) => b[1] - a[1])
    .map(([id, n]) => `${id} ×${n}`)
    .join(', ')
}

const Cells = memo(function Cells({ line }: { line: FleetLine }) {
  const r = line.row
  if (!r) {
    const text =
      line.status === 'failed'
        ? `failed: ${line.failure ?? ''}`
        : line.status === 'running'
          ? `evaluating… ${line.progress === null ? '' : `${Math.round(line.progress * 100)} %`}`
          : line.status
    return (
      <div
        role="cell"
        className={`fleet-cell fleet-wide ${line.status === 'failed' ? 'bad' : 'hint'}`}
        title={text}
      >
        {text}
      </div>
    )
  }
  const risk = `${r.usedLater}${r.invariantsOk ? '' : ' · ✗ invariants'}`
  return (
    <>
      <div
        role="cell"
        className="fleet-cell"
        title={r.model ? `${r.format} · ${r.model}` : r.format}
      >
        {r.format}
      </div>
      <div role="cell" className="fleet-cell num">
        {count(r.calls)}
      </div>
      <div
        role="cell"
        className="fleet-cell num"
        title={`${count(r.tokens.last.before)} → ${count(r.tokens.last.after)} tokens`}
      >
        {short(r.tokens.last.before)} → {short(r.tokens.last.after)}
      </div>
      <div role="cell" className="fleet-cell num">
        {pct(r.tokens.last.savedFraction)}
      </div>
      <div
        role="cell"
        className="fleet-cell num"
        title={`${count(r.tokens.peak.before)} → ${count(r.tokens.peak.after)} tokens`}
      >
        {short(r.tokens.peak.before)} → {short(r.tokens.peak.after)}
      </div>
      <div role="cell" className="fleet-cell num">
        {usd(r.cost.before)} → {usd(r.cost.after)}
      </div>
      <div role="cell" className="fleet-cell num">
        {r.firstCompactionCall ?? '–'}
      </div>
      <div role="cell" className="fleet-cell" title={firedText(r.fired)}>
        {firedText(r.fired) || '–'}
      </div>
      <div
        role="cell"
        className={`fleet-cell num ${r.usedLater > 0 || !r.invariantsOk ? 'bad' : ''}`}
      >
        {risk}
      </div>
    </>
  )
})

/** One line per conversation, only the lines in view rendered (10,000 scroll smoothly). */
export function FleetTable(props: {
  lines: readonly FleetLine[]
  sort: Sort
  onSort: (key: SortKey) => void
}) {
  const { lines, sort, onSort } = props
  const scrollRef = useRef<HTMLDivElement>(null)
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtual = useVirtualizer({
    count: lines.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => FLEET_ROW_HEIGHT,
    overscan: 12,
  })
  return (
    <div
      className="fleet-table"
      role="table"
      aria-rowcount={lines.length}
      data-testid={FLEET_TID.table}
    >
      <div role="row" className="fleet-line fleet-head">
        {COLUMNS.map((c) => (
          <div
            role="columnheader"
            key={c.label}
            className="fleet-cell"
            title={c.title}
            aria-sort={
              c.key !== null && sort.key === c.key
                ? sort.desc
                  ? 'descending'
                  : 'ascending'
                : undefined
            }
          >
            {c.key ? (
              <button type="button" className="fleet-sort" onClick={() => onSort(c.key as SortKey)}>
                {c.label}
                {sort.key === c.key ? (sort.desc ? ' ↓' : ' ↑') : ''}
              </button>
            ) : (
              c.label
            )}
          </div>
        ))}
      </div>
      <div ref={scrollRef} className="fleet-scroll">
        <div style={{ height: virtual.getTotalSize(), position: 'relative' }}>
          {virtual.getVirtualItems().map((v) => {
            const line = lines[v.index] as FleetLine
            return (
              <div
                key={line.id}
                role="row"
                aria-rowindex={v.index + 2}
                className={`fleet-line ${line.stale ? 'stale' : ''}`}
                style={{ transform: `translateY(${v.start}px)`, height: FLEET_ROW_HEIGHT }}
                data-testid={FLEET_TID.row}
                data-name={line.name}
                data-status={line.status}
              >
                <div role="cell" className="fleet-cell fleet-name" title={line.name}>
                  <button
                    type="button"
                    className="fleet-open"
                    onClick={() => openInWorkbench(line.key, line.item)}
                    title="Open in the workbench"
                  >
                    {line.name}
                  </button>
                </div>
                <Cells line={line} />
              </div>
            )
          })}
        </div>
      </div>
    </div>
  )
}
