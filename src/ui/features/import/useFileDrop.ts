import { useEffect, useState } from 'react'

interface DropHandlers {
  readonly onFiles: (files: File[]) => void
  readonly onText: (text: string) => void
}

function carriesData(event: DragEvent): boolean {
  const types = event.dataTransfer?.types ?? []
  return types.includes('Files') || types.includes('text/plain')
}

/**
 * Window-wide drag and drop: returns whether something droppable is being dragged over the page.
 * `dragenter`/`dragleave` fire for every child element, so a depth counter tells real leaves apart.
 */
export function useFileDrop({ onFiles, onText }: DropHandlers): boolean {
  const [dragging, setDragging] = useState(false)

  useEffect(() => {
    let depth = 0
    const enter = (event: DragEvent) => {
      if (!carriesData(event)) return
      event.preventDefault()
      depth++
      setDragging(true)
    }
    const over = (event: DragEvent) => {
      // Without preventDefault on dragover the browser would open the file instead of dropping it.
      if (carriesData(event)) event.preventDefault()
    }
    const leave = () => {
      depth = Math.max(0, depth - 1)
      if (depth === 0) setDragging(false)
    }
    const drop = (event: DragEvent) => {
      if (!carriesData(event)) return
      event.preventDefault()
      depth = 0
      setDragging(false)
      const files = Array.from(event.dataTransfer?.files ?? [])
      if (files.length > 0) return onFiles(files)
      const text = event.dataTransfer?.getData('text/plain') ?? ''
      if (text.trim() !== '') onText(text)
    }
    window.addEventListener('dragenter', enter)
    window.addEventListener('dragover', over)
    window.addEventListener('dragleave', leave)
    window.addEventListener('drop', drop)
    return () => {
      window.removeEventListener('dragenter', enter)
      window.removeEventListener('dragover', over)
      window.removeEventListener('dragleave', leave)
      window.removeEventListener('drop', drop)
    }
  }, [onFiles, onText])

  return dragging
}
