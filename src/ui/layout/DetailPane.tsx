import { useDrawer } from '../../store/index.ts'
import { DetailDrawer } from '../features/detail/DetailDrawer.tsx'
import { TID } from '../testids.ts'

/**
 * The right-hand split pane: the selected group's detail, or a hint on how to open one. Always
 * drawn beside the list (never over it), so its width is stable while rows are browsed.
 */
export function DetailPane() {
  const { open, groupId } = useDrawer()
  return (
    <div className="detail-pane" data-testid={TID.detailPane} id="detail-pane">
      {open && groupId !== null ? (
        <DetailDrawer />
      ) : (
        <div className="detail-empty hint">
          <p>
            Click a row, or move with <kbd>j</kbd>/<kbd>k</kbd> and press <kbd>Enter</kbd>, to see
            what happened to a group: its text before and after, the decisions and the tokens.
          </p>
          <p>
            <kbd>Esc</kbd> in the detail goes back to the list; <kbd>?</kbd> lists every key.
          </p>
        </div>
      )}
    </div>
  )
}
