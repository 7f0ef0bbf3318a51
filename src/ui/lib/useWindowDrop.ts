import { useEffect, useState } from 'react'

/**
 * Window-wide drag and drop: returns whether something `accepts` takes is being dragged over the
 * page, and hands the drop's `DataTransfer` to `onDrop` synchronously (its entries are gone once
 * the handler returns). `dragenter`/`dragleave` fire for every child element, so a depth counter
 * tells real leaves apart. Shared by the workbench's drop zone and the fleet.
 */
export function useWindowDrop(
  accepts: (types: readonly string[]) => boolean,
  onDrop: (data: DataTransfer) => void,
): boolean {
  const [dragging, setDragging] = useState(false)
  useEffect(() => {
    let depth = 0
    const takes = (event: DragEvent) => accepts(event.dataTransfer?.types ?? [])
    const enter = (event: DragEvent) => {
      if (!takes(event)) return
      event.preventDefault()
      depth++
      setDragging(true)
    }
    const over = (event: DragEvent) => {
      // Without preventDefault on dragover the browser would open the file instead of dropping it.
      if (takes(event)) event.preventDefault()
    }
    const leave = () => {
      depth = Math.max(0, depth - 1)
      if (depth === 0) setDragging(false)
    }
    const drop = (event: DragEvent) => {
      if (!event.dataTransfer || !takes(event)) return
      event.preventDefault()
      depth = 0
      setDragging(false)
      onDrop(event.dataTransfer)
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
  }, [accepts, onDrop])
  return dragging
}
