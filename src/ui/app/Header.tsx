import { TID } from '../testids.ts'
import { ThemeToggle } from './ThemeToggle.tsx'

export function Header() {
  return (
    <header className="header">
      <div className="brand">
        <span className="brand-name">Compaction Lab</span>
        <span className="brand-tag">see LLM context compaction on agent transcripts</span>
      </div>
      <p className="privacy" data-testid={TID.privacyNote}>
        <span aria-hidden="true" className="privacy-dot" />
        Your transcript never leaves this browser — nothing is uploaded.
      </p>
      <ThemeToggle />
    </header>
  )
}
