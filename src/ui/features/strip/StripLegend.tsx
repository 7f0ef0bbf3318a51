const KIND_LABELS: Record<string, string> = {
  system: 'system',
  user: 'user',
  assistant_text: 'assistant text',
  tool_call: 'tool call',
  summary: 'summary (in transcript)',
  summaries: 'inserted summaries',
  overhead: 'tools & framing',
  merged: 'tiny groups, merged',
}

/** The strip's key: kinds present, then what the hatching, marks and lines mean. */
export function StripLegend(props: {
  readonly kinds: readonly string[]
  readonly hasTriggers: boolean
  readonly hasUpstream: boolean
}) {
  const { kinds, hasTriggers, hasUpstream } = props
  return (
    <div className="strip-key" aria-hidden="true">
      {kinds.map((kind) => (
        <span key={kind}>
          <i className={`swatch strip-swatch strip-kind-${kind}`} /> {KIND_LABELS[kind] ?? kind}
        </span>
      ))}
      <span>
        <i className="swatch strip-swatch strip-swatch-excluded" /> excluded (hatched, before only)
      </span>
      <span>
        <i className="swatch strip-swatch strip-swatch-mark" /> stubbed / trimmed / summarised
      </span>
      <span>
        <i className="swatch seg-reserved" /> reserved output
      </span>
      <span>
        <i className="swatch edge" /> end of usable window
      </span>
      {hasTriggers ? (
        <span>
          <i className="swatch strip-swatch-trigger" /> trigger level
        </span>
      ) : null}
      {hasUpstream ? (
        <span>
          <i className="swatch strip-swatch-upstream" /> compacted upstream
        </span>
      ) : null}
    </div>
  )
}
