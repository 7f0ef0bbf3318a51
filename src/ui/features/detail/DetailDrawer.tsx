import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react'
import {
  useDrawer,
  useGroupDetail,
  useRunSummary,
  useViewActions,
  type DetailTab,
  type GroupDetail,
} from '../../../store/index.ts'
import { TID } from '../../testids.ts'
import { DetailHeader } from './DetailHeader.tsx'
import { DetailTabs, panelId, tabId } from './DetailTabs.tsx'
import { DiffView } from './DiffView.tsx'
import { FIRST_LIMIT, nextLimit } from './diffModel.ts'
import { PrettyView } from './PrettyView.tsx'
import { RawView } from './RawView.tsx'
import { TokensView } from './TokensView.tsx'
import { WhyView } from './WhyView.tsx'
import './detail.css'

function TabBody(props: {
  readonly tab: DetailTab
  readonly detail: GroupDetail
  readonly onMore: () => void
}) {
  const { tab, detail, onMore } = props
  const summary = useRunSummary()
  switch (tab) {
    case 'pretty':
      return <PrettyView detail={detail} onMore={onMore} />
    case 'raw':
      return <RawView detail={detail} onMore={onMore} />
    case 'diff':
      return <DiffView detail={detail} onMore={onMore} />
    case 'why':
      return <WhyView detail={detail} steps={summary?.steps ?? null} />
    case 'tokens':
      return <TokensView detail={detail} />
    default: {
      const unknownTab: never = tab
      return unknownTab
    }
  }
}

/**
 * The detail drawer for the selected group: a fixed panel on the right (width `--drawer-width`)
 * with its own scroll, so opening it never shifts the page. Esc or the close button closes it.
 */
export function DetailDrawer() {
  const { open, tab, groupId } = useDrawer()
  const { closeDrawer, setDetailTab } = useViewActions()
  const shown = open ? groupId : null
  // The character limit belongs to one group: selecting another starts from the first limit.
  const [limit, setLimit] = useState<{ group: string | null; chars: number }>({
    group: null,
    chars: FIRST_LIMIT,
  })
  const chars = limit.group === shown ? limit.chars : FIRST_LIMIT
  const state = useGroupDetail(shown, chars)
  const base = useId().replace(/:/g, '')
  const ref = useRef<HTMLElement>(null)

  // Opening moves focus into the drawer (so Esc and the tabs work from the keyboard); closing
  // gives it back to where it was, when that element is still there.
  const isOpen = shown !== null
  useEffect(() => {
    if (!isOpen) return
    const previous = document.activeElement
    ref.current?.focus()
    return () => {
      if (previous instanceof HTMLElement && previous.isConnected) previous.focus()
    }
  }, [isOpen])

  if (!shown) return null
  const detail = state.status === 'ready' || state.status === 'loading' ? state.detail : null
  const onMore = () => setLimit({ group: shown, chars: nextLimit(chars) })
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.key === 'Escape') closeDrawer()
  }

  return (
    <aside
      ref={ref}
      className="detail-drawer"
      tabIndex={-1}
      aria-labelledby={`${base}-title`}
      aria-busy={state.status === 'loading'}
      data-testid={TID.detailDrawer}
      data-group={shown}
      data-state={state.status}
      onKeyDown={onKeyDown}
    >
      <div className="detail-top">
        {detail ? (
          <DetailHeader detail={detail} titleId={`${base}-title`} />
        ) : (
          <h2 className="detail-title" id={`${base}-title`}>
            Group detail
          </h2>
        )}
        <button
          type="button"
          className="detail-close"
          aria-label="Close detail"
          title="Close (Esc)"
          data-testid={TID.detailClose}
          onClick={closeDrawer}
        >
          ×
        </button>
      </div>
      <DetailTabs base={base} tab={tab} onChange={setDetailTab} />
      <div
        className={state.status === 'loading' ? 'detail-body loading' : 'detail-body'}
        role="tabpanel"
        id={panelId(base)}
        aria-labelledby={tabId(base, tab)}
        data-testid={TID.detailPanel}
        data-tab={tab}
      >
        {state.status === 'error' ? (
          <p className="detail-error" role="alert" data-testid={TID.detailError}>
            Could not show this group: {state.message}
          </p>
        ) : detail ? (
          <TabBody tab={tab} detail={detail} onMore={onMore} />
        ) : (
          <p className="hint">Loading…</p>
        )}
      </div>
    </aside>
  )
}
