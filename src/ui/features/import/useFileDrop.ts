import { useCallback } from 'react'
import { useWindowDrop } from '../../lib/useWindowDrop.ts'

interface DropHandlers {
  readonly onFiles: (files: File[]) => void
  readonly onText: (text: string) => void
}

const carriesData = (types: readonly string[]) =>
  types.includes('Files') || types.includes('text/plain')

/** Window-wide drag and drop of files or text: whether something droppable is over the page. */
export function useFileDrop({ onFiles, onText }: DropHandlers): boolean {
  const onDrop = useCallback(
    (data: DataTransfer) => {
      const files = Array.from(data.files)
      if (files.length > 0) return onFiles(files)
      const text = data.getData('text/plain')
      if (text.trim() !== '') onText(text)
    },
    [onFiles, onText],
  )
  return useWindowDrop(carriesData, onDrop)
}
