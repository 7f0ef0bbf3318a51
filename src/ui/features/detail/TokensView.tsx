import { useMemo } from 'react'
import type { GroupDetail, WireMessage } from '../../../store/index.ts'
import { formatCount, formatSigned } from '../../lib/format.ts'
import { TID } from '../../testids.ts'
import { diffMessages, type PartDiff } from './diffModel.ts'

interface Row {
  readonly key: string
  readonly label: string
  readonly level: 'message' | 'part'
  readonly before: number | null
  readonly after: number | null
}

function partRow(key: string, diff: PartDiff, noRun: boolean): Row {
  switch (diff.kind) {
    case 'unchanged':
    case 'replaced': {
      const p = diff.before
      const label = [p.kind, p.label, diff.kind === 'replaced' ? '(replaced)' : ''].filter(Boolean)
      return {
        key,
        label: label.join(' · '),
        level: 'part',
        before: p.tokens,
        after: diff.after.tokens,
      }
    }
    case 'removed':
      return {
        key,
        label: [diff.before.kind, diff.before.label].filter(Boolean).join(' · '),
        level: 'part',
        before: diff.before.tokens,
        after: noRun ? null : 0,
      }
    case 'added':
      return {
        key,
        label: `${diff.after.kind} (added)`,
        level: 'part',
        before: null,
        after: diff.after.tokens,
      }
    default: {
      const unknownDiff: never = diff
      return unknownDiff
    }
  }
}

const messageLabel = (m: WireMessage) =>
  `${m.role} ${m.index >= 0 ? `#${m.index}` : m.id === 'system' ? 'system prompt' : 'summary'}`

function rowsOf(detail: GroupDetail): Row[] {
  const diffs = diffMessages(detail.before, detail.after)
  const rows: Row[] = []
  detail.before.forEach((m, mi) => {
    const d = diffs?.[mi]
    rows.push({
      key: m.id,
      label: messageLabel(m),
      level: 'message',
      before: m.tokens,
      after: d ? (d.after?.tokens ?? 0) : null,
    })
    const parts = d ? d.parts : m.parts.map((p): PartDiff => ({ kind: 'removed', before: p }))
    parts.forEach((p, pi) => rows.push(partRow(`${m.id}:${pi}`, p, d === undefined)))
  })
  for (const s of detail.summaries)
    rows.push({
      key: s.id,
      label: 'inserted summary',
      level: 'message',
      before: null,
      after: s.tokens,
    })
  return rows
}

const cell = (n: number | null) => (n === null ? '—' : formatCount(n))

/** Tokens per message and part, before and after the run (message rows include framing). */
export function TokensView({ detail }: { readonly detail: GroupDetail }) {
  const rows = useMemo(() => rowsOf(detail), [detail])
  const { before, after } = detail.tokens
  return (
    <table className="table detail-tokens-table">
      <thead>
        <tr>
          <th scope="col">Message / part</th>
          <th scope="col" className="num">
            Before
          </th>
          <th scope="col" className="num">
            After
          </th>
          <th scope="col" className="num">
            Change
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr
            key={r.key}
            className={`detail-token-${r.level}`}
            data-testid={TID.detailTokenRow}
            data-before={r.before ?? undefined}
            data-after={r.after ?? undefined}
          >
            <th scope="row">{r.label}</th>
            <td className="num">{cell(r.before)}</td>
            <td className="num">{cell(r.after)}</td>
            <td className="num">
              {r.after === null ? '' : formatSigned(r.after - (r.before ?? 0))}
            </td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr>
          <th scope="row">Group total</th>
          <td className="num">{formatCount(before)}</td>
          <td className="num">{cell(after)}</td>
          <td className="num">{after === null ? '' : formatSigned(after - before)}</td>
        </tr>
      </tfoot>
    </table>
  )
}
