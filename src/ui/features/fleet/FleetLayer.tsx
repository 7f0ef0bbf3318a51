import { useEffect } from 'react'
import { followConfig, useFleetStore } from './fleetStore.ts'

/** Whether the fleet view replaces the workbench; also keeps the fleet following the config. */
export function useFleetOpen(): boolean {
  useEffect(() => followConfig(), [])
  return useFleetStore((s) => s.open)
}
