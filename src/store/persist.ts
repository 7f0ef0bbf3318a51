/**
 * localStorage behind try/catch: private windows, disabled storage or a full quota must never break
 * the app. Keys are versioned so a future shape change can ignore (or migrate) old values.
 */
const PREFIX = 'compaction-lab:'

export function readStored(key: string): string | null {
  try {
    return globalThis.localStorage?.getItem(PREFIX + key) ?? null
  } catch {
    return null
  }
}

export function writeStored(key: string, value: string): void {
  try {
    globalThis.localStorage?.setItem(PREFIX + key, value)
  } catch {
    // Storage unavailable: the preference simply lasts for this session.
  }
}
