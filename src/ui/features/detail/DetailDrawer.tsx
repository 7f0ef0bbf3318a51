import { useId, useState, type KeyboardEvent } from 'react'
import {
  useDrawer,
  useGroupDetail,
  useRunSummary,
  useViewActions,
  type DetailTab,
  type GroupDetail,
} from '../../../store/index.ts'
import { focusList } from '../../commands/focus.ts'
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
 * The detail of the selected group, in the workbench's right-hand split pane (width
 * `--drawer-width`, beside the list, never over it) with its own scroll. Esc inside it goes back
 * to the list; the close button (or Esc on the list) closes it.
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
  // Opening does not take focus: a click or j/k keeps browsing the list; Enter moves focus in.
  // Closing from inside gives focus back to the list (the pane's content is gone).
  const close = () => {
    closeDrawer()
    focusList()
  }

  if (!shown) return null
  const detail = state.status === 'ready' || state.status === 'loading' ? state.detail : null
  const onMore = () => setLimit({ group: shown, chars: nextLimit(chars) })
  // Esc leaves the detail for the list (it stays shown); Esc on the list then closes it.
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.key !== 'Escape' || event.defaultPrevented) return
    event.preventDefault()
    focusList()
  }

  return (
    <aside
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
          onClick={close}
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
