import { useEffect } from 'react'
import { useLabStore } from '../../../store/index.ts'
import { followConfig, useFleetStore } from './fleetStore.ts'

/** Whether the fleet view replaces the workbench; also keeps the fleet following the config. */
export function useFleetOpen(): boolean {
  const lab = useLabStore()
  useEffect(() => followConfig(lab), [lab])
  return useFleetStore((s) => s.open)
}
