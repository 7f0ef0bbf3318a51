import type { WirePart } from '../../../store/index.ts'
import { formatCount } from '../../lib/format.ts'
import { TID } from '../../testids.ts'

const KIND_LABELS: Record<WirePart['kind'], string> = {
  text: 'text',
  reasoning: 'reasoning',
  tool_call: 'tool call',
  tool_result: 'tool result',
  image: 'image',
  file: 'file',
  opaque: 'opaque',
}

/** Parts whose text is a size line, not content: shown muted, never as a payload. */
const SIZED = new Set<WirePart['kind']>(['image', 'file', 'opaque'])

/** "Show more" for cut texts: asks the worker again with a larger limit. */
export function ShowMore(props: {
  readonly shown: number
  readonly total: number
  readonly onMore: () => void
}) {
  return (
    <button
      type="button"
      className="detail-more"
      data-testid={TID.detailMore}
      onClick={props.onMore}
    >
      Show more ({formatCount(props.shown)} of {formatCount(props.total)} characters shown)
    </button>
  )
}

/**
 * One part: a kind tag, its label (tool name and call id, media type…) and its text. The text is
 * a React text node inside <pre>: transcript content is never parsed as HTML.
 */
export function PartText(props: {
  readonly part: WirePart
  readonly onMore?: () => void
  readonly className?: string
}) {
  const { part, onMore, className } = props
  return (
    <div
      className={['detail-part', className].filter(Boolean).join(' ')}
      data-testid={TID.detailPart}
      data-kind={part.kind}
      data-replaced={part.replaced ? 'true' : undefined}
    >
      <div className="detail-part-head">
        <span className={`detail-kind kind-${part.kind}`}>{KIND_LABELS[part.kind]}</span>
        {part.label ? <span className="detail-label">{part.label}</span> : null}
        {part.replaced ? <span className="pill medium">replaced</span> : null}
        {part.derivedFrom === 'text' ? (
          <span
            className="pill neutral"
            data-testid={TID.derivedBadge}
            title="Not recorded as a tool call: read from the agent's text (a fenced command and the observation that answered it)"
          >
            from text
          </span>
        ) : null}
        <span className="detail-part-tokens num">{formatCount(part.tokens)} tok</span>
      </div>
      {SIZED.has(part.kind) ? (
        <p className="detail-size">{part.text}</p>
      ) : part.text ? (
        <pre className="detail-text">{part.text}</pre>
      ) : (
        <p className="hint">(empty)</p>
      )}
      {part.truncated && onMore ? (
        <ShowMore shown={part.text.length} total={part.chars} onMore={onMore} />
      ) : null}
    </div>
  )
}
