import type { ChangeEvent } from 'react'
import { useTranscriptActions } from '../../../store/index.ts'
import { TID } from '../../testids.ts'

/** Extensions transcripts come in; "All files" stays available in the OS dialog. */
const ACCEPT = '.json,.jsonl,.ndjson,.traj,.har,.txt,.md,.yaml,.yml,application/json,text/plain'

export function FilePicker() {
  const { loadFiles } = useTranscriptActions()

  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    const files = Array.from(event.currentTarget.files ?? [])
    // Reset so picking the same file again still fires a change.
    event.currentTarget.value = ''
    void loadFiles(files)
  }

  return (
    <div className="file-row">
      <label className="button">
        Choose files…
        <input
          type="file"
          multiple
          accept={ACCEPT}
          className="visually-hidden"
          onChange={onChange}
          data-testid={TID.fileInput}
        />
      </label>
      <span className="hint">or drop files anywhere on the page</span>
    </div>
  )
}
