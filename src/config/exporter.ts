/**
 * Who wrote an exported file: every export names the program and version that produced it (our
 * config file's `exporter` field, the header line of each target system's file), so a file found
 * later can be traced to the rules it was made with. Kept in step with package.json by a test.
 */
export const EXPORTER_NAME = 'compaction-lab'
export const EXPORTER_VERSION = '0.1.0'

/** `compaction-lab 0.1.0`. */
export function exporterName(): string {
  return `${EXPORTER_NAME} ${EXPORTER_VERSION}`
}
