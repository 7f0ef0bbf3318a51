import type { GroupDetail, WireMessage } from '../../../store/index.ts'
import { formatCount } from '../../lib/format.ts'
import { PartText } from './PartText.tsx'

export function MessageHead(props: { readonly message: WireMessage; readonly note?: string }) {
  const { message, note } = props
  return (
    <header className="detail-msg-head">
      <span className={`detail-role role-${message.role}`}>{message.role}</span>
      <span className="hint num">
        {message.index >= 0 ? `message #${message.index}` : (note ?? 'outside the messages')}
      </span>
      <span className="detail-msg-tokens num">{formatCount(message.tokens)} tokens</span>
    </header>
  )
}

/** The group's messages as the transcript has them, part by part. */
export function PrettyView(props: { readonly detail: GroupDetail; readonly onMore: () => void }) {
  const { detail, onMore } = props
  const changed = detail.status !== 'kept' && detail.status !== 'protected'
  return (
    <div className="detail-pretty">
      {changed && detail.after !== null ? (
        <p className="hint">
          The original group. The run changed it ({detail.status}): see Diff and Why.
        </p>
      ) : null}
      {detail.before.map((m) => (
        <article key={m.id} className="detail-msg">
          <MessageHead message={m} note="system prompt" />
          {m.parts.length === 0 ? <p className="hint">(no parts)</p> : null}
          {m.parts.map((p, i) => (
            <PartText key={i} part={p} onMore={onMore} />
          ))}
        </article>
      ))}
      {detail.summaries.length > 0 ? (
        <>
          <h3 className="detail-subhead">Summary inserted for this group</h3>
          {detail.summaries.map((m) => (
            <article key={m.id} className="detail-msg inserted">
              <MessageHead message={m} note="inserted by the run" />
              {m.parts.map((p, i) => (
                <PartText key={i} part={p} onMore={onMore} />
              ))}
            </article>
          ))}
        </>
      ) : null}
    </div>
  )
}
