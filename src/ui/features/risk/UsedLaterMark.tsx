import './risk.css'

/** A small flag beside a group's status: this config removes content the agent used later. */
export function UsedLaterMark() {
  return (
    <span
      className="risk-mark pill medium"
      data-used-later="true"
      title="The agent used content of this group later, and this config removes it"
    >
      used later
    </span>
  )
}
