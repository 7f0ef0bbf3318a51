import { readFile } from 'node:fs/promises'
import type { EngineDeps } from '../engine/compaction/types.ts'
import type { CompactionConfig } from '../config/schema.ts'
import { evaluateFile, type FleetConfig } from '../fleet/evaluate.ts'
import type { FleetOutcome } from '../fleet/types.ts'
import { counterFor } from '../session/load.ts'
import { offlineDeps } from '../session/run.ts'
import { strictUtf8 } from './io.ts'

/**
 * What `compact` runs with by default: the config's tokenizer and the offline digest summariser
 * (no network request), so a fleet row and `compact` on the same file agree.
 */
export async function fleetDeps(config: CompactionConfig): Promise<EngineDeps> {
  return offlineDeps(await counterFor(config.tokenizer))
}

/** Read one file and evaluate every conversation in it; a read error is that file's failure. */
export async function evaluatePath(
  path: string,
  fleet: FleetConfig,
  deps: EngineDeps,
): Promise<FleetOutcome[]> {
  let bytes: Uint8Array
  try {
    bytes = await readFile(path)
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    return [{ kind: 'failed', failure: { name: path, message: `cannot read: ${message}` } }]
  }
  try {
    // No hooks can cancel a CLI run: evaluateFile always resolves with outcomes.
    return (await evaluateFile(bytes, path, fleet, deps, { strictUtf8 })) ?? []
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    return [{ kind: 'failed', failure: { name: path, message: `internal error: ${message}` } }]
  }
}
