import type { GroupDetail } from '../../../store/index.ts'
import { formatCount } from '../../lib/format.ts'
import { TID } from '../../testids.ts'

const KIND_LABELS: Record<string, string> = {
  system: 'system',
  user: 'user',
  assistant_text: 'assistant text',
  tool_call: 'tool call',
  summary: 'summary',
}

/** Which group, what happened to it, what it costs before → after, what it touched. */
export function DetailHeader(props: { readonly detail: GroupDetail; readonly titleId: string }) {
  const { detail, titleId } = props
  const { before, after } = detail.tokens
  return (
    <div className="detail-header">
      <h2 className="detail-title" id={titleId}>
        Group <span className="num">#{detail.index}</span> ·{' '}
        {KIND_LABELS[detail.kind] ?? detail.kind}
      </h2>
      <div className="detail-facts">
        <span className={`pill gt-status ${detail.status}`} data-testid={TID.detailStatus}>
          {detail.status}
        </span>
        <span
          className="num detail-total"
          data-testid={TID.detailTokens}
          data-before={before}
          data-after={after ?? undefined}
        >
          {formatCount(before)}
          {after !== null ? ` → ${formatCount(after)}` : ''} tokens
        </span>
        <span className="hint">turn {detail.turn}</span>
        {detail.configName ? <span className="hint">with {detail.configName}</span> : null}
      </div>
      {detail.tools.length > 0 || detail.resource ? (
        <p className="detail-tools">
          {detail.tools.length > 0 ? <code>{detail.tools.join(', ')}</code> : null}
          {detail.resource ? <span className="detail-resource"> {detail.resource}</span> : null}
        </p>
      ) : null}
    </div>
  )
}
