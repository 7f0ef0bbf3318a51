import { useWarnings } from '../../../store/index.ts'
import { Problem } from '../../components/Problem.tsx'
import { Section } from '../../components/Section.tsx'
import { formatCount } from '../../lib/format.ts'
import { TID } from '../../testids.ts'

/** Recoverable import problems: the rest of the transcript loaded, these lines did not. */
export function WarningsList() {
  const { warnings, warningCount } = useWarnings()
  if (warningCount === 0) return null
  const capped = warningCount > warnings.length
  return (
    <Section
      title={
        <>
          Parse warnings{' '}
          <span className="badge warn" data-testid={TID.warningCount}>
            {formatCount(warningCount)}
          </span>
        </>
      }
      testId={TID.warnings}
      className="warnings"
    >
      <ol className="problems">
        {warnings.map((warning, index) => (
          <li key={index} className="problem" data-line={warning.line}>
            <Problem problem={warning} />
          </li>
        ))}
      </ol>
      {capped ? (
        <p className="hint">
          Showing the first {formatCount(warnings.length)} of {formatCount(warningCount)}.
        </p>
      ) : null}
    </Section>
  )
}
