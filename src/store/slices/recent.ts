import type { StateCreator } from 'zustand'
import { readStored, writeStored } from '../persist.ts'
import {
  forgetRecent,
  keepRecent,
  listRecent,
  readRecent,
  type RecentMeta,
} from '../recent-files.ts'
import type { AppState } from '../store.ts'
import type { LoadTextOptions } from './transcript.ts'

/**
 * What to open at start-up: the last transcript that loaded — a kept one (by id) or a built-in
 * sample (by file name). A pointer only, in localStorage; the content is in IndexedDB.
 */
export type LastOpened =
  | { readonly kind: 'recent'; readonly id: string }
  | { readonly kind: 'sample'; readonly fileName: string }

const LAST_KEY = 'recent.last.v1'

export function parseLastOpened(text: string | null): LastOpened | null {
  if (text === null) return null
  try {
    const raw: unknown = JSON.parse(text)
    if (typeof raw !== 'object' || raw === null) return null
    const r = raw as Record<string, unknown>
    if (r.kind === 'recent' && typeof r.id === 'string') return { kind: 'recent', id: r.id }
    if (r.kind === 'sample' && typeof r.fileName === 'string') {
      return { kind: 'sample', fileName: r.fileName }
    }
  } catch {
    // Unreadable: open the default sample.
  }
  return null
}

export interface RecentSlice {
  /** Transcripts kept on this device, newest first (metadata; the content stays in IndexedDB). */
  recentFiles: readonly RecentMeta[]
  /** Why the last loaded transcript was not kept (too large, storage unavailable); else null. */
  recentNote: string | null
  refreshRecent: () => Promise<void>
  /** Remember a transcript that loaded: pastes and files are kept, samples only pointed to. */
  keepLoaded: (input: string | ArrayBuffer, options: LoadTextOptions) => Promise<void>
  openRecent: (id: string) => Promise<boolean>
  forgetRecent: (id: string) => Promise<void>
  /** Re-open what was open before the reload; false when there is nothing (or it is gone). */
  restoreLastOpened: () => Promise<boolean>
}

export const createRecentSlice: StateCreator<AppState, [], [], RecentSlice> = (set, get) => ({
  recentFiles: [],
  recentNote: null,

  refreshRecent: async () => set({ recentFiles: await listRecent() }),

  keepLoaded: async (input, options) => {
    if (options.origin === 'sample') {
      if (options.fileName) {
        writeStored(LAST_KEY, JSON.stringify({ kind: 'sample', fileName: options.fileName }))
      }
      set({ recentNote: null })
      return
    }
    // A large paste went as bytes (transferred): its text is in the options.
    const data = typeof input === 'string' ? input : (options.source ?? options.text)
    if (data === undefined) return
    const name = options.fileName ?? 'pasted text'
    const result = await keepRecent(data, name, options.origin, Date.now())
    if (result.kept) {
      writeStored(LAST_KEY, JSON.stringify({ kind: 'recent', id: result.meta.id }))
      set({ recentNote: null })
    } else {
      set({ recentNote: result.reason })
    }
    await get().refreshRecent()
  },

  openRecent: async (id) => {
    const seq = get().loadSeq
    const record = await readRecent(id)
    // Something else was loaded while the record was read: the newer choice wins.
    if (get().loadSeq !== seq) return true
    if (!record) {
      await get().refreshRecent()
      return false
    }
    if (typeof record.data === 'string') {
      if (record.origin === 'paste') set({ draft: record.data })
      await get().loadText(record.data, {
        origin: record.origin,
        ...(record.origin === 'file' ? { fileName: record.name } : {}),
      })
    } else {
      await get().loadFiles([new File([record.data], record.name)])
    }
    return true
  },

  forgetRecent: async (id) => {
    await forgetRecent(id)
    const last = parseLastOpened(readStored(LAST_KEY))
    if (last?.kind === 'recent' && last.id === id) writeStored(LAST_KEY, 'null')
    await get().refreshRecent()
  },

  restoreLastOpened: async () => {
    const last = parseLastOpened(readStored(LAST_KEY))
    if (!last) return false
    if (last.kind === 'recent') return get().openRecent(last.id)
    const samples = get().samples.length > 0 ? get().samples : await get().fetchSamples()
    const sample = samples.find((s) => s.fileName === last.fileName)
    if (!sample) return false
    await get().loadSample(sample.id)
    return true
  },
})
