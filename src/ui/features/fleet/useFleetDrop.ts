import { useWindowDrop } from '../../lib/useWindowDrop.ts'
import { addSources } from './fleetStore.ts'
import { sourcesOfDrop } from './sources.ts'

const hasFiles = (types: readonly string[]) => types.includes('Files')

function dropIntoFleet(data: DataTransfer): void {
  void sourcesOfDrop(data).then((sources) => {
    if (sources && sources.length > 0) addSources(sources)
  })
}

/**
 * While the fleet view is open, anything dropped on the page joins the fleet: files, folders
 * (walked), archives. The workbench's own drop zone is not mounted meanwhile.
 */
export function useFleetDrop(): boolean {
  return useWindowDrop(hasFiles, dropIntoFleet)
}
