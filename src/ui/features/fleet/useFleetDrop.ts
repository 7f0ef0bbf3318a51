import { useEffect, useState } from 'react'
import { addSources } from './fleetStore.ts'
import { sourcesOfDrop } from './sources.ts'

/**
 * While the fleet view is open, anything dropped on the page joins the fleet: files, folders
 * (walked), archives. The workbench's own drop zone is not mounted meanwhile. The drop's entries
 * are taken synchronously in the handler (they are gone once it returns).
 */
export function useFleetDrop(): boolean {
  const [dragging, setDragging] = useState(false)
  useEffect(() => {
    let depth = 0
    const hasFiles = (e: DragEvent) => (e.dataTransfer?.types ?? []).includes('Files')
    const enter = (e: DragEvent) => {
      if (!hasFiles(e)) return
      e.preventDefault()
      depth++
      setDragging(true)
    }
    const over = (e: DragEvent) => {
      if (hasFiles(e)) e.preventDefault()
    }
    const leave = () => {
      depth = Math.max(0, depth - 1)
      if (depth === 0) setDragging(false)
    }
    const drop = (e: DragEvent) => {
      if (!e.dataTransfer || !hasFiles(e)) return
      e.preventDefault()
      depth = 0
      setDragging(false)
      void sourcesOfDrop(e.dataTransfer).then((sources) => {
        if (sources && sources.length > 0) addSources(sources)
      })
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
  }, [])
  return dragging
}
