import type { ReactNode } from 'react'

interface SectionProps {
  readonly title: ReactNode
  readonly aside?: ReactNode
  readonly children: ReactNode
  readonly className?: string
  readonly testId?: string
}

/** A titled panel: the one card style of the app. */
export function Section({ title, aside, children, className, testId }: SectionProps) {
  return (
    <section className={className ? `section ${className}` : 'section'} data-testid={testId}>
      <header className="section-head">
        <h2 className="section-title">{title}</h2>
        {aside ? <div className="section-aside">{aside}</div> : null}
      </header>
      <div className="section-body">{children}</div>
    </section>
  )
}
