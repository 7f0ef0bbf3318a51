import type { GroupDetail, RunView, WireDecision } from '../../../store/index.ts'
import { formatCount } from '../../lib/format.ts'
import { TID } from '../../testids.ts'
import { UsedLaterWarning } from '../risk/UsedLaterWarning.tsx'

const KIND_WORDS: Record<WireDecision['kind'], string> = {
  exclude: 'left out',
  stub: 'replaced by a stub',
  trim: 'trimmed',
  insert: 'summary inserted',
  protected: 'protected',
  skip: 'skipped',
  failed_open: 'failed open',
}

const stepName = (step: number) => (step < 0 ? 'final fallback' : `step ${step + 1}`)

function Decision({ d }: { readonly d: WireDecision }) {
  return (
    <li
      className={`detail-decision decision-${d.kind}`}
      data-testid={TID.detailDecision}
      data-kind={d.kind}
      data-strategy={d.strategy}
      data-reason={d.reason}
    >
      <div className="detail-decision-head">
        <span className={`pill decision-pill ${d.kind}`}>{KIND_WORDS[d.kind]}</span>
        <code className="detail-strategy">{d.strategy}</code>
        <span className="hint">
          {stepName(d.step)}
          {d.round !== undefined ? ` · round ${d.round + 1}` : ''}
        </span>
        <span className="detail-decision-tokens num">
          {formatCount(d.tokensBefore)} → {formatCount(d.tokensAfter)} tokens
        </span>
      </div>
      <p className="detail-reason">
        <code>{d.reason}</code> {d.detail}
      </p>
      {d.fixed ? <p className="hint">Avoided a known bug of the source system: {d.fixed}</p> : null}
    </li>
  )
}

/**
 * Why the group looks the way it does: every decision and protection that named it, then the
 * pipeline's steps, the ones that touched this group marked, so "why not?" has an answer too.
 */
export function WhyView(props: {
  readonly detail: GroupDetail
  readonly steps: RunView['steps'] | null
}) {
  const { detail, steps } = props
  if (detail.after === null) return <p className="hint">No run yet: no decisions to explain.</p>
  const touched = new Set(detail.decisions.map((d) => d.step))
  return (
    <div className="detail-why">
      {detail.usedLater ? (
        <UsedLaterWarning item={detail.usedLater} isToolResult={detail.kind === 'tool_call'} />
      ) : null}
      {detail.decisions.length === 0 ? (
        <p className="hint">
          No step of <code>{detail.configName}</code> touched this group: it is sent as it is.
        </p>
      ) : (
        <ol className="detail-decisions">
          {detail.decisions.map((d, i) => (
            <Decision key={i} d={d} />
          ))}
        </ol>
      )}
      {steps && steps.length > 0 ? (
        <>
          <h3 className="detail-subhead">Pipeline of {detail.configName}</h3>
          <ol className="detail-steps">
            {steps.map((s) => (
              <li key={s.index} className={touched.has(s.index) ? 'touched' : undefined}>
                <code>{s.strategy}</code> <span className="pill neutral">{s.status}</span>{' '}
                {touched.has(s.index) ? <strong>decided on this group. </strong> : null}
                <span className="hint">{s.why}</span>
              </li>
            ))}
          </ol>
          {touched.has(-1) ? (
            <p className="hint">The final fallback also decided on this group.</p>
          ) : null}
        </>
      ) : null}
    </div>
  )
}
