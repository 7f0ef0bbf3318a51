import type { LossyWarning } from '../../../store/index.ts'
import { TID } from '../../testids.ts'

interface ExportFindingsProps {
  readonly warnings: readonly LossyWarning[]
  readonly notes: readonly string[]
  /** Whether the file is a config translation (only those can lose parts of the config). */
  readonly translation: boolean
}

/** What the target cannot carry over (and does instead), then how to use the file. */
export function ExportFindings({ warnings, notes, translation }: ExportFindingsProps) {
  return (
    <div className="xp-findings">
      {translation ? (
        <section
          className="xp-warnings"
          data-testid={TID.exportWarnings}
          data-count={warnings.length}
          aria-label="Lossy-export warnings"
        >
          <h3 className="xp-subtitle">
            {warnings.length === 0
              ? 'Carried over in full'
              : `${warnings.length} ${warnings.length === 1 ? 'part' : 'parts'} not carried over`}
          </h3>
          {warnings.length === 0 ? (
            <p className="hint">The target expresses every part of this config.</p>
          ) : (
            <ul className="xp-list">
              {warnings.map((w, i) => (
                <li
                  key={i}
                  className="xp-warning"
                  data-testid={TID.exportWarning}
                  data-path={w.path}
                >
                  <code className="xp-path">{w.path}</code>
                  <span>{w.message}</span>
                  <span className="xp-instead">Instead: {w.instead}</span>
                </li>
              ))}
            </ul>
          )}
        </section>
      ) : null}
      {notes.length > 0 ? (
        <section className="xp-notes" data-testid={TID.exportNotes} aria-label="Notes">
          <h3 className="xp-subtitle">Notes</h3>
          <ul className="xp-list">
            {notes.map((note, i) => (
              <li key={i}>{note}</li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  )
}
