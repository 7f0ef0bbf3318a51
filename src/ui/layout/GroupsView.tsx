import { useLayoutActions } from '../../store/index.ts'
import { InvariantsPanel } from '../features/invariants/InvariantsPanel.tsx'
import { GroupTable } from '../features/table/GroupTable.tsx'
import { ReplayTimeline } from '../features/timeline/ReplayTimeline.tsx'
import { TID } from '../testids.ts'
import { Splitter } from './Splitter.tsx'
import { Staged } from './Staged.tsx'
import { usePanelWidths } from './usePanelWidths.ts'

/** The timeline's bottom edge: drag (or ↑/↓) to give the overview more or less height. */
function TimelineSplitter() {
  const widths = usePanelWidths()
  const { setPanelSize } = useLayoutActions()
  if (widths.timelineCollapsed) return null
  return (
    <Splitter
      orientation="horizontal"
      label="Resize the timeline"
      value={widths.timeline}
      min={widths.timelineMin}
      max={widths.timelineMax}
      direction={1}
      onChange={(px) => setPanelSize('timeline', px)}
      controls="timeline-slot"
      testId={TID.timelineSplitter}
      className="row-splitter"
    />
  )
}

/**
 * The heart of the workbench (Chrome's Performance panel, speedscope): the replay timeline as the
 * overview on top — its brush filters the list — then the list (the detail pane is beside it).
 */
export function GroupsView() {
  const { timelineCollapsed } = usePanelWidths()
  return (
    <div className="groups-view">
      {/* A new transcript's first run: the budget paints, then the timeline, then the table. */}
      <div className="timeline-slot" id="timeline-slot" data-collapsed={timelineCollapsed}>
        <Staged frames={1}>
          <ReplayTimeline />
        </Staged>
      </div>
      <TimelineSplitter />
      <InvariantsPanel />
      <div className="list-slot" id="group-list" tabIndex={-1}>
        <Staged frames={2}>
          <GroupTable />
        </Staged>
      </div>
    </div>
  )
}
