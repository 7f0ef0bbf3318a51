import type { InspectReport } from '../../../store/index.ts'
import { formatCount } from '../../lib/format.ts'
import { TID } from '../../testids.ts'

/** Facts the importer learned about the source: model, title, wrapper, window, notes. */
export function MetaLine({ meta }: { readonly meta: InspectReport['meta'] }) {
  const facts: [string, string][] = []
  if (meta.title) facts.push(['Title', meta.title])
  if (meta.model) facts.push(['Model', meta.model])
  if (meta.wrapper) facts.push(['Wrapped in', meta.wrapper])
  if (meta.contextWindow)
    facts.push(['Context window', `${formatCount(meta.contextWindow)} tokens`])
  if (meta.historyIncomplete) facts.push(['History incomplete', meta.historyIncomplete])
  if (facts.length === 0 && meta.notes.length === 0) return null
  return (
    <div className="meta">
      {facts.length > 0 ? (
        <dl className="meta-facts">
          {facts.map(([key, value]) => (
            <div key={key} className="meta-fact">
              <dt>{key}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
      ) : null}
      {meta.notes.length > 0 ? (
        <ul className="notes" data-testid={TID.metaNotes}>
          {meta.notes.map((note, index) => (
            <li key={index}>{note}</li>
          ))}
        </ul>
      ) : null}
    </div>
  )
}
