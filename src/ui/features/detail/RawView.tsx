import type { GroupDetail, WireMessage } from '../../../store/index.ts'
import { TID } from '../../testids.ts'
import { ShowMore } from './PartText.tsx'

function RawMessage(props: { readonly message: WireMessage; readonly onMore: () => void }) {
  const { message, onMore } = props
  return (
    <article className="detail-msg">
      <header className="detail-msg-head">
        <span className={`detail-role role-${message.role}`}>{message.role}</span>
        <span className="hint num">
          {message.index >= 0 ? `message #${message.index}` : message.id}
        </span>
      </header>
      <pre className="detail-text detail-raw" data-testid={TID.detailRaw}>
        {message.raw}
      </pre>
      {message.raw.length < message.rawChars ? (
        <ShowMore shown={message.raw.length} total={message.rawChars} onMore={onMore} />
      ) : null}
    </article>
  )
}

/**
 * The canonical messages as JSON (the worker leaves out inline binary data and the source
 * format's private envelope, so this is what the engine reasons about).
 */
export function RawView(props: { readonly detail: GroupDetail; readonly onMore: () => void }) {
  const { detail, onMore } = props
  return (
    <div className="detail-rawview">
      <p className="hint">Canonical model; inline binary data is replaced by its size.</p>
      {detail.before.map((m) => (
        <RawMessage key={m.id} message={m} onMore={onMore} />
      ))}
      {detail.after?.some((m) => m.parts.some((p) => p.replaced)) ? (
        <>
          <h3 className="detail-subhead">After the run</h3>
          {detail.after.map((m) => (
            <RawMessage key={m.id} message={m} onMore={onMore} />
          ))}
        </>
      ) : null}
    </div>
  )
}
