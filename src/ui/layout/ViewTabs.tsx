import { MAIN_VIEWS, useMainView, useReport, useViewActions } from '../../store/index.ts'
import { TID } from '../testids.ts'
import { VIEW_KEYS, VIEW_LABELS } from './views.ts'

/**
 * The workbench's views as buttons in the header (not an ARIA tablist: a view is a page of the
 * shell, reached also by `g l` / `g o` / `g s` / `g c`). Disabled until a transcript is loaded.
 */
export function ViewTabs() {
  const view = useMainView()
  const { report } = useReport()
  const { setMainView } = useViewActions()
  return (
    <nav className="view-tabs" aria-label="Views">
      {MAIN_VIEWS.map((id) => (
        <button
          key={id}
          type="button"
          className={id === view ? 'view-tab active' : 'view-tab'}
          aria-current={id === view ? 'page' : undefined}
          disabled={!report}
          title={`${VIEW_LABELS[id]} (${VIEW_KEYS[id]})`}
          data-testid={TID.viewTab}
          data-view={id}
          onClick={() => setMainView(id)}
        >
          {VIEW_LABELS[id]}
        </button>
      ))}
    </nav>
  )
}
