import { useMemo } from 'react'
import type { GroupDetail, WirePart } from '../../../store/index.ts'
import { formatCount } from '../../lib/format.ts'
import { TID } from '../../testids.ts'
import { diffMessages, lineDiff, type PartDiff } from './diffModel.ts'
import { PartText, ShowMore } from './PartText.tsx'
import { MessageHead } from './PrettyView.tsx'

const SIGN = { same: ' ', del: '−', add: '+' } as const

/** Old and new text of a replaced part, line by line (text nodes only, never HTML). */
function LineDiff(props: { readonly before: WirePart; readonly after: WirePart }) {
  const { before, after } = props
  const lines = useMemo(() => lineDiff(before.text, after.text), [before.text, after.text])
  return (
    <pre className="detail-text detail-linediff" aria-label="Line diff: − old, + new">
      {lines.map((l, i) => (
        <span key={i} className={`diff-line diff-${l.op}`}>
          <span className="diff-sign" aria-hidden="true">
            {SIGN[l.op]}
          </span>
          {l.text}
          {'\n'}
        </span>
      ))}
    </pre>
  )
}

const partName = (p: WirePart) => [p.kind.replace('_', ' '), p.label].filter(Boolean).join(' · ')

function PartDiffView(props: { readonly diff: PartDiff; readonly onMore: () => void }) {
  const { diff, onMore } = props
  switch (diff.kind) {
    case 'unchanged':
      // Collapsed: the eye goes to what changed; the text is one click away.
      return (
        <details
          className="diff-part diff-unchanged"
          data-testid={TID.detailDiffPart}
          data-diff="unchanged"
        >
          <summary className="diff-tag">
            unchanged · {partName(diff.before)} · {formatCount(diff.before.tokens)} tokens
          </summary>
          <PartText part={diff.before} onMore={onMore} />
        </details>
      )
    case 'removed':
      return (
        <div
          className="diff-part diff-removed"
          data-testid={TID.detailDiffPart}
          data-diff="removed"
        >
          <p className="diff-tag">removed · −{formatCount(diff.before.tokens)} tokens</p>
          <PartText part={diff.before} onMore={onMore} />
        </div>
      )
    case 'added':
      return (
        <div className="diff-part diff-added" data-testid={TID.detailDiffPart} data-diff="added">
          <p className="diff-tag">added</p>
          <PartText part={diff.after} onMore={onMore} />
        </div>
      )
    case 'replaced': {
      const { before, after } = diff
      const cut = before.truncated || after.truncated
      return (
        <div
          className="diff-part diff-replaced"
          data-testid={TID.detailDiffPart}
          data-diff="replaced"
        >
          <p className="diff-tag">
            replaced · {partName(before)} · {formatCount(before.tokens)} →{' '}
            {formatCount(after.tokens)} tokens
          </p>
          <LineDiff before={before} after={after} />
          {cut ? (
            <ShowMore
              shown={before.text.length + after.text.length}
              total={before.chars + after.chars}
              onMore={onMore}
            />
          ) : null}
        </div>
      )
    }
    default: {
      const unknownDiff: never = diff
      return unknownDiff
    }
  }
}

/** What the run did to each message and part: unchanged, replaced (old vs new), removed. */
export function DiffView(props: { readonly detail: GroupDetail; readonly onMore: () => void }) {
  const { detail, onMore } = props
  const messages = useMemo(() => diffMessages(detail.before, detail.after), [detail])
  if (messages === null) return <p className="hint">No run yet: nothing to compare with.</p>
  return (
    <div className="detail-diff">
      {detail.after?.length === 0 ? (
        <p className="diff-banner diff-removed">
          The whole group is left out of the compacted context ({detail.status}).
        </p>
      ) : null}
      {messages.map((m) => (
        <article key={m.id} className={`detail-msg diff-msg-${m.status}`}>
          <MessageHead message={m.before} note="system prompt" />
          {m.parts.map((p, i) => (
            <PartDiffView key={i} diff={p} onMore={onMore} />
          ))}
        </article>
      ))}
      {detail.summaries.length > 0 ? (
        <>
          <h3 className="detail-subhead">Inserted in its place</h3>
          {detail.summaries.map((m) => (
            <article key={m.id} className="detail-msg inserted">
              <MessageHead message={m} note="inserted summary" />
              {m.parts.map((p, i) => (
                <PartDiffView key={i} diff={{ kind: 'added', after: p }} onMore={onMore} />
              ))}
            </article>
          ))}
        </>
      ) : null}
    </div>
  )
}
