import { useRef, type ChangeEvent } from 'react'
import { formatMs } from '../../lib/format.ts'
import { FLEET_TID } from './fleetIds.ts'
import { addSources, cancelFleet, clearFleet, setFleetOpen, useFleetStore } from './fleetStore.ts'
import { directoryPickerOf, pickFolderSources } from './directoryPicker.ts'
import { sourcesOfFiles } from './sources.ts'

function useFleetProgress() {
  const entries = useFleetStore((s) => s.entries)
  let done = 0
  let failed = 0
  let running = 0
  for (const e of entries) {
    if (e.status === 'done') done++
    else if (e.status === 'failed') failed++
    else if (e.status === 'running') running++
  }
  return { total: entries.length, done, failed, running }
}

/** Add files / a folder / a .zip, the run's progress, cancel, clear, back to the workbench. */
export function FleetToolbar() {
  const files = useRef<HTMLInputElement>(null)
  const folder = useRef<HTMLInputElement>(null)
  const run = useFleetStore((s) => s.run)
  const poolSize = useFleetStore((s) => s.poolSize)
  const { total, done, failed, running } = useFleetProgress()
  const onPick = (event: ChangeEvent<HTMLInputElement>) => {
    const picked = Array.from(event.target.files ?? [])
    event.target.value = ''
    // Chromium builds a picked folder's file list inside this change event (~100–400 ms for 200
    // files, its own and unsplittable): the fleet starts in a task of its own, not appended to it.
    if (picked.length > 0)
      void sourcesOfFiles(picked).then((sources) => setTimeout(() => addSources(sources)))
  }
  // Where the browser has showDirectoryPicker the folder is read a batch at a time (no FileList
  // task); elsewhere, or when the API refuses (a sandboxed frame), the folder input as before.
  const onFolder = () => {
    // No picker: open the input inside the click itself (Safari wants the gesture's own task).
    if (!directoryPickerOf(window)) return folder.current?.click()
    void pickFolderSources(window).then((sources) => {
      if (sources === 'fallback') folder.current?.click()
      else if (sources.length > 0) addSources(sources)
    })
  }
  const finished = done + failed
  return (
    <div className="fleet-toolbar">
      <div className="fleet-actions">
        <button type="button" className="button primary" onClick={() => files.current?.click()}>
          Add files or .zip…
        </button>
        <button
          type="button"
          className="button"
          data-testid={FLEET_TID.folderButton}
          onClick={onFolder}
        >
          Add a folder…
        </button>
        <input
          ref={files}
          type="file"
          multiple
          hidden
          data-testid={FLEET_TID.fileInput}
          onChange={onPick}
        />
        <input
          ref={folder}
          type="file"
          hidden
          data-testid={FLEET_TID.folderInput}
          onChange={onPick}
          {...{ webkitdirectory: '' }}
        />
        {run.running ? (
          <button
            type="button"
            className="button"
            data-testid={FLEET_TID.cancel}
            onClick={cancelFleet}
          >
            Cancel
          </button>
        ) : null}
        {total > 0 ? (
          <button type="button" className="button ghost" onClick={clearFleet}>
            Clear
          </button>
        ) : null}
        <button type="button" className="button ghost" onClick={() => setFleetOpen(false)}>
          Workbench →
        </button>
      </div>
      {total > 0 ? (
        <div
          className="fleet-progress"
          data-testid={FLEET_TID.progress}
          data-done={finished}
          data-total={total}
          data-running={run.running ? 'true' : 'false'}
        >
          <progress max={total} value={finished} aria-label="files evaluated" />
          <span>
            {finished} / {total} files
            {failed > 0 ? ` (${failed} failed)` : ''} · config <b>{run.config}</b>
            {run.running
              ? ` · ${running} running in ${poolSize} worker${poolSize === 1 ? '' : 's'}`
              : run.elapsedMs !== null
                ? ` · ${formatMs(run.elapsedMs)}`
                : ''}
          </span>
        </div>
      ) : null}
    </div>
  )
}
