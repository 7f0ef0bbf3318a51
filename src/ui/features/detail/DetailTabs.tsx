import { useRef, type KeyboardEvent } from 'react'
import { DETAIL_TABS, type DetailTab } from '../../../store/index.ts'
import { TID } from '../../testids.ts'

const LABELS: Record<DetailTab, string> = {
  pretty: 'Pretty',
  raw: 'Raw JSON',
  diff: 'Diff',
  why: 'Why',
  tokens: 'Tokens',
}

export const tabId = (base: string, tab: DetailTab) => `${base}-tab-${tab}`
export const panelId = (base: string) => `${base}-panel`

/**
 * The drawer's tabs as a WAI-ARIA tablist: one tab in the Tab order (roving tabindex), arrow
 * keys, Home and End move between tabs and select them (automatic activation: tabs are cheap).
 */
export function DetailTabs(props: {
  readonly base: string
  readonly tab: DetailTab
  readonly onChange: (tab: DetailTab) => void
}) {
  const { base, tab, onChange } = props
  const refs = useRef(new Map<DetailTab, HTMLButtonElement>())

  const move = (event: KeyboardEvent<HTMLDivElement>) => {
    const at = DETAIL_TABS.indexOf(tab)
    const last = DETAIL_TABS.length - 1
    const to =
      event.key === 'ArrowRight'
        ? (at + 1) % DETAIL_TABS.length
        : event.key === 'ArrowLeft'
          ? (at + last) % DETAIL_TABS.length
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : null
    if (to === null) return
    event.preventDefault()
    const next = DETAIL_TABS[to] as DetailTab
    onChange(next)
    refs.current.get(next)?.focus()
  }

  return (
    <div className="detail-tabs" role="tablist" aria-label="Detail views" onKeyDown={move}>
      {DETAIL_TABS.map((t) => (
        <button
          key={t}
          ref={(el) => {
            if (el) refs.current.set(t, el)
            else refs.current.delete(t)
          }}
          type="button"
          role="tab"
          id={tabId(base, t)}
          aria-selected={t === tab}
          aria-controls={panelId(base)}
          tabIndex={t === tab ? 0 : -1}
          className={t === tab ? 'detail-tab active' : 'detail-tab'}
          data-testid={TID.detailTab}
          data-tab={t}
          onClick={() => onChange(t)}
        >
          {LABELS[t]}
        </button>
      ))}
    </div>
  )
}
