import { useCallback } from 'react'
import { LARGE_PASTE_CHARS, useLabStore } from '../../../store/index.ts'
import { TID } from '../../testids.ts'
import { useFileDrop } from './useFileDrop.ts'

/** Drop files (or dragged text) anywhere on the page; an overlay says where it will go. */
export function DropZone() {
  const lab = useLabStore()
  const onFiles = useCallback((files: File[]) => void lab.getState().loadFiles(files), [lab])
  const onText = useCallback(
    (text: string) => {
      const { setDraft, loadDraft, loadPasted } = lab.getState()
      // Long dragged text goes to the worker as bytes, like a large paste.
      if (text.length >= LARGE_PASTE_CHARS) {
        void loadPasted(text)
        return
      }
      setDraft(text)
      void loadDraft()
    },
    [lab],
  )
  const dragging = useFileDrop({ onFiles, onText })
  if (!dragging) return null
  return (
    <div className="drop-overlay" data-testid={TID.dropOverlay} aria-hidden="true">
      <div className="drop-card">
        Drop to load — the file is read here, in your browser, and never uploaded.
      </div>
    </div>
  )
}
