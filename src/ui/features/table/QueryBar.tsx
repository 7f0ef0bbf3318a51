import { useId } from 'react'
import { TID } from '../../testids.ts'
import { QUERY_HELP, type ParsedQuery } from './query.ts'

function QueryHelp() {
  return (
    <details className="gt-popover gt-help" data-testid={TID.tableQueryHelp}>
      <summary aria-label="Filter syntax help">?</summary>
      <div className="gt-popover-body" role="note">
        <p className="gt-help-lead">Space-separated terms must all match.</p>
        <dl>
          {QUERY_HELP.map((h) => (
            <div key={h.example}>
              <dt>
                <code>{h.example}</code>
              </dt>
              <dd>{h.meaning}</dd>
            </div>
          ))}
        </dl>
      </div>
    </details>
  )
}

/** The query with a caret under the character where parsing stopped. */
function QueryError({
  id,
  query,
  error,
}: {
  id: string
  query: string
  error: { position: number; message: string }
}) {
  return (
    <div
      className="gt-query-error"
      id={id}
      role="alert"
      data-testid={TID.tableQueryError}
      data-position={error.position}
    >
      <span>
        Not applied — column {error.position + 1}: {error.message}
      </span>
      <code className="gt-query-echo" aria-hidden="true">
        {query.slice(0, error.position)}
        <mark>{query.slice(error.position, error.position + 1) || ' '}</mark>
        {query.slice(error.position + 1)}
      </code>
    </div>
  )
}

/** The filter grammar input; errors show below it and leave the table unfiltered by the query. */
export function QueryBar(props: {
  readonly query: string
  readonly parsed: ParsedQuery
  readonly onChange: (query: string) => void
}) {
  const { query, parsed, onChange } = props
  const errorId = useId()
  return (
    <div className="gt-query">
      <div className="gt-query-row">
        <input
          type="search"
          className="gt-query-input"
          data-testid={TID.tableQuery}
          value={query}
          onChange={(e) => onChange(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Escape' && query !== '') {
              e.stopPropagation()
              onChange('')
            }
          }}
          placeholder="Filter: tool:read status:stubbed tokens>1000 -role:user /regex/"
          aria-label="Filter groups"
          aria-invalid={!parsed.ok}
          aria-describedby={parsed.ok ? undefined : errorId}
          spellCheck={false}
          autoComplete="off"
        />
        <QueryHelp />
      </div>
      {parsed.ok ? null : <QueryError id={errorId} query={query} error={parsed.error} />}
    </div>
  )
}
