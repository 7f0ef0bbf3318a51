import { FLEET_TID } from './fleetIds.ts'
import { setFleetOpen, useFleetStore } from './fleetStore.ts'

/**
 * The way between the workbench and the fleet: open the fleet view, or come back to it from a
 * conversation opened from one of its rows (the fleet keeps its rows meanwhile).
 */
export function FleetBar() {
  const open = useFleetStore((s) => s.open)
  const files = useFleetStore((s) => s.entries.length)
  const opened = useFleetStore((s) => s.openedKey)
  const running = useFleetStore((s) => s.run.running)
  if (open) return null
  return (
    <div className="fleet-bar" data-testid={FLEET_TID.bar}>
      {files > 0 ? (
        <button
          type="button"
          className="button"
          data-testid={FLEET_TID.backToFleet}
          onClick={() => setFleetOpen(true)}
        >
          ← Back to the fleet ({files} file{files === 1 ? '' : 's'}
          {running ? ', running' : ''})
        </button>
      ) : (
        <button
          type="button"
          className="button ghost"
          data-testid={FLEET_TID.openFleet}
          onClick={() => setFleetOpen(true)}
        >
          Fleet: check this config on many transcripts…
        </button>
      )}
      {opened ? <span className="hint">Showing {opened} from the fleet</span> : null}
    </div>
  )
}
