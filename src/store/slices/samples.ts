import type { StateCreator } from 'zustand'
import type { AppState } from '../store.ts'

/** One built-in sample, as listed in `public/samples/index.json`. */
export interface SampleEntry {
  readonly id: string
  readonly title: string
  /** Same-origin URL of the transcript file. */
  readonly url: string
  readonly fileName: string
  readonly description?: string
  readonly format?: string
}

/** The sample the app opens with, so a first visit shows something real instead of a blank page. */
export const DEFAULT_SAMPLE_ID = 'coding-session'

export interface SamplesSlice {
  samples: readonly SampleEntry[]
  samplesStatus: 'idle' | 'loading' | 'ready' | 'error'
  samplesError: string | null
  fetchSamples: () => Promise<readonly SampleEntry[]>
  /** Fetch the index, then open the default sample unless the user loaded something meanwhile. */
  openDefaultSample: () => Promise<void>
  loadSample: (id: string) => Promise<void>
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined
}

/**
 * Read the sample index leniently (an array, or `{samples: [...]}`; `file`, `path` or `url`) but
 * strictly about where files live: anything that resolves off our origin is dropped, because the
 * app promises that nothing leaves (or enters from) another origin.
 */
export function parseSampleIndex(raw: unknown, indexUrl: URL): SampleEntry[] {
  const list = Array.isArray(raw)
    ? raw
    : isRecord(raw) && Array.isArray(raw.samples)
      ? raw.samples
      : []
  const entries: SampleEntry[] = []
  for (const item of list) {
    if (!isRecord(item)) continue
    const id = text(item.id)
    const file =
      text(item.file) ?? text(item.path) ?? text(item.url) ?? (id ? `${id}.jsonl` : undefined)
    if (!id || !file) continue
    const url = new URL(file, indexUrl)
    if (url.origin !== indexUrl.origin) continue
    entries.push({
      id,
      title: text(item.title) ?? text(item.label) ?? text(item.name) ?? id,
      url: url.href,
      fileName: url.pathname.split('/').pop() ?? file,
      description: text(item.description),
      format: text(item.format),
    })
  }
  return entries
}

function sampleIndexUrl(): URL {
  return new URL(`${import.meta.env.BASE_URL}samples/index.json`, globalThis.location.href)
}

export const createSamplesSlice: StateCreator<AppState, [], [], SamplesSlice> = (set, get) => {
  /** The index request under way: a second asker (startup, then the default sample) shares it. */
  let fetching: Promise<readonly SampleEntry[]> | null = null
  const fetchIndex = async (): Promise<readonly SampleEntry[]> => {
    set({ samplesStatus: 'loading', samplesError: null })
    try {
      const indexUrl = sampleIndexUrl()
      const response = await fetch(indexUrl, { credentials: 'same-origin' })
      if (!response.ok) throw new Error(`sample index: HTTP ${response.status}`)
      const samples = parseSampleIndex(await response.json(), indexUrl)
      set({ samples, samplesStatus: 'ready' })
      return samples
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error)
      set({ samplesStatus: 'error', samplesError: message })
      return []
    }
  }
  return {
    samples: [],
    samplesStatus: 'idle',
    samplesError: null,

    fetchSamples: () => {
      fetching ??= fetchIndex().finally(() => {
        fetching = null
      })
      return fetching
    },

    openDefaultSample: async () => {
      const samples = await get().fetchSamples()
      const sample = samples.find((entry) => entry.id === DEFAULT_SAMPLE_ID) ?? samples[0]
      if (get().status === 'idle' && sample) await get().loadSample(sample.id)
    },

    loadSample: async (id) => {
      const sample = get().samples.find((entry) => entry.id === id)
      if (!sample) return
      set({ status: 'loading', progress: { phase: 'parse', done: 0, total: 1 }, error: null })
      const seq = get().loadSeq
      try {
        const response = await fetch(sample.url, { credentials: 'same-origin' })
        if (!response.ok) throw new Error(`${sample.fileName}: HTTP ${response.status}`)
        const body = await response.text()
        // Something else was loaded while the sample downloaded (a paste, a drop): that wins.
        if (get().loadSeq !== seq) return
        await get().loadText(body, { origin: 'sample', fileName: sample.fileName })
      } catch (error) {
        if (get().loadSeq !== seq) return
        const message = error instanceof Error ? error.message : String(error)
        // The analysis on screen (if any) stays; the error is said beside it.
        const status = get().report ? 'loaded' : 'error'
        set({ status, error: { line: 0, offset: 0, message }, progress: null })
      }
    },
  }
}
