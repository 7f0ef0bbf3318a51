import type { StateCreator } from 'zustand'
import type { InspectReport } from '../../engine/inspect-types.ts'
import type { FormatId } from '../../engine/model.ts'
import type { TokenizerId } from '../../engine/tokens/types.ts'
import type { Detection, ParseWarning } from '../../formats/types.ts'
import { isStale } from '../../worker/client.ts'
import type {
  GroupFacts,
  Loaded,
  LoadedItems,
  LoadPhase,
  MessagePreview,
  Progress,
  WireProblem,
} from '../../worker/protocol.ts'
import { orderFiles } from '../fileSet.ts'
import type { AppState } from '../store.ts'

export type LoadStatus = 'idle' | 'loading' | 'loaded' | 'error'
export type InputOrigin = 'sample' | 'paste' | 'file'

export interface LoadProgress {
  readonly phase: LoadPhase
  readonly done: number
  readonly total: number
}

/**
 * What was handed to the worker last, so the format override can parse it again: the text for
 * pastes and samples; for files only the name (their bytes were transferred to the worker, and
 * the file is read again from the picked set).
 */
interface LastInput {
  readonly text?: string
  readonly fileName?: string
  readonly origin: InputOrigin
}

export interface LoadTextOptions {
  readonly fileName?: string
  readonly origin: InputOrigin
  readonly format?: FormatId
  /** Other files picked or dropped together with this one (listed; open them one at a time). */
  readonly otherFiles?: readonly string[]
  /** One conversation of a multi-item file (0-based). */
  readonly item?: number
  /** The picked file, kept on this device (IndexedDB) once it loaded; see `keepLoaded`. */
  readonly source?: Blob
  /** The text `input`'s bytes encode (a large paste): kept for the format override. */
  readonly text?: string
}

/**
 * Pastes at least this long skip the paste box: their bytes go straight to the worker, so the
 * UI thread never lays out (or re-renders) a megabyte of text in a textarea.
 */
export const LARGE_PASTE_CHARS = 64 * 1024

export interface TranscriptSlice {
  status: LoadStatus
  /** Name of the loaded file or sample; null for pasted text. */
  fileName: string | null
  origin: InputOrigin | null
  otherFiles: readonly string[]
  /** Every file of the last pick or drop, main session first; the user switches between them. */
  fileSet: readonly File[]
  detection: Detection | null
  candidates: readonly Detection[]
  formats: readonly FormatId[]
  /** The format the user forced, or null for automatic detection. */
  forcedFormat: FormatId | null
  warnings: readonly ParseWarning[]
  warningCount: number
  error: WireProblem | null
  /** The instant chars/4 report. */
  report: InspectReport | null
  /** The exact report, once the tokenizer has loaded and counted. */
  exactReport: InspectReport | null
  /** Excerpts of the first user / last assistant message. */
  preview: readonly MessagePreview[]
  /**
   * The loaded conversation's per-group facts (role, tools, resource, turn…): sent once with the
   * load, joined to every run reply (which leaves them out) as it arrives.
   */
  groupFacts: GroupFacts | null
  /** Set while the worker is busy; null when idle. */
  progress: LoadProgress | null
  timings: { readonly loadMs: number | null; readonly countMs: number | null }
  /** The paste box text: kept in the store so an error never loses it. */
  draft: string
  /** Characters of the large paste loaded as bytes (shown instead of the text); null otherwise. */
  pastedChars: number | null
  /**
   * Counts loads started. A load that first fetches its input (a sample, a kept transcript) reads
   * it before and after: when another load started meanwhile, the user's newer choice wins.
   */
  loadSeq: number
  lastInput: LastInput | null
  /** The conversations of a multi-item file (the import panel's picker), or null. */
  items: LoadedItems | null
  /** Which of them is loaded (0-based); null when the file was read as a whole. */
  item: number | null

  setDraft: (text: string) => void
  /** Load text (paste, sample) or a file's bytes (transferred to the worker, not copied). */
  loadText: (input: string | ArrayBuffer, options: LoadTextOptions) => Promise<void>
  loadDraft: () => Promise<void>
  /** A large paste: encoded and sent to the worker as bytes, not put in the paste box. */
  loadPasted: (text: string) => Promise<void>
  loadFiles: (files: readonly File[]) => Promise<void>
  /** Analyse another file of the current set (by name). */
  openFile: (name: string, format?: FormatId, item?: number) => Promise<void>
  overrideFormat: (format: FormatId | null) => Promise<void>
  /** Load another conversation of the current multi-item file. */
  openItem: (index: number) => Promise<void>
  recount: (tokenizer: TokenizerId) => Promise<void>
}

function toProgress(message: Progress<LoadPhase>): LoadProgress | null {
  // The final phase clears the bar rather than leaving a full one on screen.
  return message.phase === undefined || message.phase === 'done'
    ? null
    : { phase: message.phase, done: message.done, total: message.total }
}

function failure(error: unknown): WireProblem {
  return { line: 0, offset: 0, message: error instanceof Error ? error.message : String(error) }
}

/** The fields that describe the analysis on screen (restored when a later load fails). */
function keptAnalysis(s: TranscriptSlice): Partial<TranscriptSlice> {
  return {
    fileName: s.fileName,
    origin: s.origin,
    otherFiles: s.otherFiles,
    detection: s.detection,
    candidates: s.candidates,
    formats: s.formats,
    forcedFormat: s.forcedFormat,
    warnings: s.warnings,
    warningCount: s.warningCount,
    report: s.report,
    exactReport: s.exactReport,
    preview: s.preview,
    groupFacts: s.groupFacts,
    timings: s.timings,
    lastInput: s.lastInput,
    pastedChars: s.pastedChars,
  }
}

function fromLoaded(message: Loaded): Partial<TranscriptSlice> {
  return {
    status: message.error ? 'error' : 'loaded',
    detection: message.detection,
    candidates: message.candidates,
    formats: message.formats,
    warnings: message.warnings,
    warningCount: message.warningCount,
    error: message.error,
    report: message.report,
    preview: message.preview,
    groupFacts: message.facts ?? null,
    timings: { loadMs: message.ms, countMs: null },
    items: message.items,
    item: message.item,
  }
}

export const createTranscriptSlice: StateCreator<AppState, [], [], TranscriptSlice> = (
  set,
  get,
) => ({
  status: 'idle',
  fileName: null,
  origin: null,
  otherFiles: [],
  fileSet: [],
  detection: null,
  candidates: [],
  formats: [],
  forcedFormat: null,
  warnings: [],
  warningCount: 0,
  error: null,
  report: null,
  exactReport: null,
  preview: [],
  groupFacts: null,
  progress: null,
  timings: { loadMs: null, countMs: null },
  draft: '',
  pastedChars: null,
  loadSeq: 0,
  lastInput: null,
  items: null,
  item: null,

  setDraft: (text) => set({ draft: text, pastedChars: null }),

  loadText: async (input, options) => {
    const onProgress = (message: Progress<LoadPhase>) => set({ progress: toProgress(message) })
    // What is on screen now: kept (and shown again) if this load fails, so a bad paste or an
    // unreadable file never wipes the analysis (the worker keeps its session too).
    const previous = get().report ? keptAnalysis(get()) : null
    set({ loadSeq: get().loadSeq + 1 })
    // The paste keeps its text and the picked set its files whatever happens (see loadFiles).
    set({
      status: 'loading',
      error: null,
      progress: { phase: 'parse', done: 0, total: 1 },
      ...(previous ? {} : { report: null, exactReport: null, preview: [] }),
    })
    const lastInput: LastInput = {
      ...(typeof input === 'string' ? { text: input } : {}),
      ...(options.text !== undefined ? { text: options.text } : {}),
      fileName: options.fileName,
      origin: options.origin,
    }
    const client = get().engine
    try {
      // load → count → run → replay: the load replies with the instant (chars/4) report.
      const loaded = await client.request(
        'load',
        {
          ...(typeof input === 'string' ? { text: input } : { bytes: input }),
          ...(options.fileName !== undefined ? { fileName: options.fileName } : {}),
          ...(options.format !== undefined ? { format: options.format } : {}),
          ...(options.item !== undefined ? { item: options.item } : {}),
        },
        { onProgress },
      )
      if (loaded.error && previous) {
        set({ ...previous, status: 'loaded', error: loaded.error, progress: null })
        // The worker kept its session, but this load superseded the requests under way on it
        // (a count, a run, its replay): finish what was cut short.
        if (!previous.exactReport) void get().recount('o200k_base')
        else if (get().runStatus !== 'done' || get().replay === null) void get().rerun()
        return
      }
      // A run belongs to the transcript it ran on: forget it now that another one is in.
      get().clearRun()
      get().resetView()
      set({
        fileName: options.fileName ?? null,
        origin: options.origin,
        otherFiles: options.otherFiles ?? [],
        // Pasted text or a sample replaces the picked files; a file of the set keeps the set.
        ...(options.origin === 'file' ? {} : { fileSet: [] }),
        forcedFormat: options.format ?? null,
        exactReport: null,
        lastInput,
        ...fromLoaded(loaded),
        // Parsed: the exact count follows (the run below starts meanwhile, see the run slice).
        ...(loaded.error
          ? { progress: null }
          : { progress: { phase: 'tokenizer', done: 2, total: 4 } }),
      })
      // Nothing was parsed: there is nothing to count or run.
      if (loaded.error) return
      // Kept for next time in a task of its own: hashing and storing a large paste took tens of
      // ms inside the load reply's task, beside the render of the new transcript (issue 14).
      setTimeout(() => void get().keepLoaded(input, options), 0)
      // The count is asked first (a count supersedes the run requests sent before it), then the
      // first run, which prices with the estimate: the budget paints before the tokenizer is in.
      const counting = client.request('count', { tokenizer: 'o200k_base' }, { onProgress })
      void get().rerun()
      const counted = await counting
      set({
        exactReport: counted.report,
        timings: { loadMs: get().timings.loadMs, countMs: counted.ms },
        progress: null,
      })
      // Compaction runs on exact counts: run again unless the run under way (started on the
      // estimate right after the load) already prices with them; if it turns out it did not, the
      // run slice runs again when it lands. Cancelling it here would waste its work.
      const { runStatus, summary } = get()
      if (runStatus !== 'running' && summary?.tokenizer !== counted.tokenizer) void get().rerun()
    } catch (error) {
      if (isStale(error)) return
      // An engine failure (not a bad transcript): keep whatever report we already have.
      set({ status: get().report ? 'loaded' : 'error', error: failure(error), progress: null })
    }
  },

  loadPasted: async (text) => {
    // Encoding a megabyte takes a few ms; the bytes are transferred, so nothing is copied again.
    const bytes = new TextEncoder().encode(text)
    set({ draft: '', pastedChars: text.length })
    await get().loadText(bytes.buffer as ArrayBuffer, { origin: 'paste', text })
  },

  loadDraft: async () => {
    const text = get().draft
    if (text.trim() === '') return
    await get().loadText(text, { origin: 'paste' })
  },

  loadFiles: async (files) => {
    const ordered = orderFiles(files)
    const first = ordered[0]
    if (!first) return
    set({ fileSet: ordered })
    await get().openFile(first.name)
  },

  openFile: async (name, format, item) => {
    const set_ = get().fileSet
    const file = set_.find((f) => f.name === name)
    if (!file) return
    set({ status: 'loading', progress: { phase: 'parse', done: 0, total: 1 }, error: null })
    let bytes: ArrayBuffer
    try {
      bytes = await file.arrayBuffer()
    } catch (error) {
      // Unreadable: say so beside whatever analysis is on screen (it stays).
      const kept = get().report !== null
      set({
        status: kept ? 'loaded' : 'error',
        error: failure(error),
        progress: null,
        ...(kept ? {} : { fileName: file.name }),
      })
      return
    }
    await get().loadText(bytes, {
      origin: 'file',
      fileName: file.name,
      // Its bytes go to the worker (transferred): the File itself is what this device keeps.
      source: file,
      otherFiles: set_.filter((f) => f !== file).map((f) => f.name),
      ...(format ? { format } : {}),
      ...(item !== undefined ? { item } : {}),
    })
  },

  overrideFormat: async (format) => {
    const { lastInput, otherFiles } = get()
    if (!lastInput) return
    if (lastInput.text === undefined) {
      // A file: read it again from the picked set (its bytes went to the worker).
      if (lastInput.fileName) await get().openFile(lastInput.fileName, format ?? undefined)
      return
    }
    await get().loadText(lastInput.text, {
      origin: lastInput.origin,
      fileName: lastInput.fileName,
      otherFiles,
      format: format ?? undefined,
    })
  },

  openItem: async (index) => {
    const { lastInput, otherFiles, forcedFormat } = get()
    if (!lastInput) return
    const format = forcedFormat ?? undefined
    if (lastInput.text === undefined) {
      // A file: read it again from the picked set (its bytes went to the worker).
      if (lastInput.fileName) await get().openFile(lastInput.fileName, format, index)
      return
    }
    await get().loadText(lastInput.text, {
      origin: lastInput.origin,
      fileName: lastInput.fileName,
      otherFiles,
      item: index,
      ...(format ? { format } : {}),
    })
  },

  recount: async (tokenizer) => {
    if (!get().report) return
    const counting = get().engine.request(
      'count',
      { tokenizer },
      { onProgress: (message) => set({ progress: toProgress(message) }) },
    )
    set({ progress: { phase: 'tokenizer', done: 2, total: 4 } })
    try {
      const counted = await counting
      set({
        exactReport: counted.report,
        timings: { loadMs: get().timings.loadMs, countMs: counted.ms },
        progress: null,
      })
      // Every figure of the run was priced with the old counter: run again with the new one.
      void get().rerun()
    } catch (error) {
      if (isStale(error)) return
      set({ error: failure(error), progress: null })
    }
  },
})
