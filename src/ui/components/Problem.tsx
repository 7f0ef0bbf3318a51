import type { WireProblem } from '../../store/index.ts'
import { formatCount } from '../lib/format.ts'

/** "line 3, offset 120" — or nothing when the position is unknown (line 0). */
export function where(problem: WireProblem): string {
  if (problem.line > 0)
    return `line ${formatCount(problem.line)}, offset ${formatCount(problem.offset)}`
  if (problem.offset > 0) return `offset ${formatCount(problem.offset)}`
  return ''
}

/** One positioned problem; the message is rendered as text (it may quote transcript content). */
export function Problem({ problem }: { readonly problem: WireProblem }) {
  const position = where(problem)
  return (
    <>
      {position ? <span className="problem-where">{position}</span> : null}
      <span className="problem-message">{problem.message}</span>
    </>
  )
}
