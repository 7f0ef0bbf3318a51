/**
 * Named hooks over module-scope selectors (xyflow style): components never pass inline selectors,
 * and object-returning hooks use `useShallow` so a re-render happens only when a field changes.
 * Event handlers should call actions through `useLabStore().getState()` or `useTranscriptActions()`.
 */
import { useDeferredValue } from 'react'
import { useShallow } from 'zustand/react/shallow'
import { useAppStore } from './context.ts'
import type { AppState } from './store.ts'

const selectStatus = (s: AppState) => s.status
const selectDetection = (s: AppState) => s.detection
const selectDraft = (s: AppState) => s.draft
const selectPastedChars = (s: AppState) => s.pastedChars
const selectProgress = (s: AppState) => s.progress
const selectError = (s: AppState) => s.error
const selectTheme = (s: AppState) => s.theme
const selectPreview = (s: AppState) => s.preview

const selectFormatChoice = (s: AppState) => ({
  detection: s.detection,
  candidates: s.candidates,
  formats: s.formats,
  forcedFormat: s.forcedFormat,
})
const selectReports = (s: AppState) => ({
  report: s.report,
  exactReport: s.exactReport,
  timings: s.timings,
})
const selectHasReport = (s: AppState) => s.report !== null
const selectLoadSeq = (s: AppState) => s.loadSeq
const selectLoadedOnce = (s: AppState) =>
  !(s.status === 'idle' || (s.status === 'loading' && s.report === null))
const selectWarnings = (s: AppState) => ({ warnings: s.warnings, warningCount: s.warningCount })
const selectSource = (s: AppState) => ({
  fileName: s.fileName,
  origin: s.origin,
  otherFiles: s.otherFiles,
  fileSet: s.fileSet,
  status: s.status,
})
const selectSamples = (s: AppState) => ({
  samples: s.samples,
  samplesStatus: s.samplesStatus,
  samplesError: s.samplesError,
})
const selectTranscriptActions = (s: AppState) => ({
  setDraft: s.setDraft,
  loadDraft: s.loadDraft,
  loadPasted: s.loadPasted,
  loadFiles: s.loadFiles,
  openFile: s.openFile,
  loadSample: s.loadSample,
  overrideFormat: s.overrideFormat,
  recount: s.recount,
})
const selectRunSummary = (s: AppState) => s.summary
const selectRunStatus = (s: AppState) => s.runStatus
const selectSelectedPreset = (s: AppState) => s.selectedPreset
const selectRunProgress = (s: AppState) => s.runProgress
const selectRunProblems = (s: AppState) => ({
  configIssues: s.configIssues,
  runError: s.runError,
})
const selectRunActions = (s: AppState) => ({
  runPreset: s.runPreset,
  setConfig: s.setConfig,
  rerun: s.rerun,
})
const selectConfigSource = (s: AppState) => ({
  selectedPreset: s.selectedPreset,
  customConfig: s.customConfig,
})
const selectPreviousSummary = (s: AppState) => s.previousSummary
const selectPrefsActions = (s: AppState) => ({
  setTheme: s.setTheme,
  cycleTheme: s.cycleTheme,
  cycleDensity: s.cycleDensity,
})
const selectDensity = (s: AppState) => s.density
const selectRecent = (s: AppState) => ({ files: s.recentFiles, note: s.recentNote })

export const useStatus = () => useAppStore(selectStatus)
export const useDetection = () => useAppStore(selectDetection)
export const useDraft = () => useAppStore(selectDraft)
/** Characters of the large paste sent to the worker as bytes (null when the box holds the text). */
export const usePastedChars = () => useAppStore(selectPastedChars)
export const useProgress = () => useAppStore(selectProgress)
export const useLoadError = () => useAppStore(selectError)
export const useTheme = () => useAppStore(selectTheme)
export const useDensity = () => useAppStore(selectDensity)
export const usePreview = () => useAppStore(selectPreview)

export const useFormatChoice = () => useAppStore(useShallow(selectFormatChoice))
/** The instant report, the exact one (when counted) and how long each took. */
export const useReport = () => useAppStore(useShallow(selectReports))
/**
 * A transcript was (or is being) analysed: false before the first load and while the first one
 * reads. A boolean, so panels under it do not re-render on every status change.
 */
export const useLoadedOnce = () => useAppStore(selectLoadedOnce)
/** Counts loads started: views keep per-transcript state across runs, never across loads. */
export const useLoadSeq = () => useAppStore(selectLoadSeq)
/** Whether a run is on screen (a boolean: staged panels re-render only when it flips). */
const selectHasRun = (s: AppState) => s.summary !== null
export const useHasRun = () => useAppStore(selectHasRun)
/** Whether a transcript's report is in (a boolean: the layout re-renders only when it flips). */
export const useHasReport = () => useAppStore(selectHasReport)
export const useWarnings = () => useAppStore(useShallow(selectWarnings))
export const useSource = () => useAppStore(useShallow(selectSource))
export const useSamples = () => useAppStore(useShallow(selectSamples))
export const useTranscriptActions = () => useAppStore(useShallow(selectTranscriptActions))
export const usePrefsActions = () => useAppStore(useShallow(selectPrefsActions))

/**
 * The latest run as a deferred value, for the heavy views (strip, timeline, table): React renders
 * them in an interruptible background pass, so a new run never blocks the page in one long task.
 */
export const useDeferredRunSummary = () => useDeferredValue(useAppStore(selectRunSummary))

/** The latest compaction run on the loaded transcript (null until one finished). */
export const useRunSummary = () => useAppStore(selectRunSummary)
export const useRunStatus = () => useAppStore(selectRunStatus)
export const useSelectedPreset = () => useAppStore(selectSelectedPreset)
export const useRunProgress = () => useAppStore(selectRunProgress)
/** Config issues (the worker refused the config) and unexpected run failures. */
export const useRunProblems = () => useAppStore(useShallow(selectRunProblems))
export const useRunActions = () => useAppStore(useShallow(selectRunActions))
/** The preset in use and the edited config (null when the preset is used as it is). */
export const useConfigSource = () => useAppStore(useShallow(selectConfigSource))
/** The run before the latest, for "what changed" deltas. */
export const usePreviousSummary = () => useAppStore(selectPreviousSummary)

// Replay timeline: the per-call series of the latest run (null when the run had no replay).
const selectReplay = (s: AppState) => s.replay
/** Context tokens per model call of the latest run, original vs compacted (typed arrays). */
export const useReplay = () => useAppStore(selectReplay)
const selectReplayPending = (s: AppState) => s.replayPending
const selectReplayProgress = (s: AppState) => s.replayProgress
/**
 * Whether the latest run's replay is still being computed. Apart from how far it is: a view that
 * only says "replaying…" must not re-render at every progress tick (issue 14: the ticks came while
 * the views rendered an edit's result, and each one interrupted that render).
 */
export const useReplayPending = () => useAppStore(selectReplayPending)
/** How far the replay is (done / total calls); only the progress bar reads it. */
export const useReplayProgress = () => useAppStore(selectReplayProgress)
// The latest run's risk: it follows the summary, so the budget paints without waiting for it.
const selectRunRisk = (s: AppState) => s.risk
/** The latest run's removed-then-used risk; null while it is still being computed. */
export const useRunRisk = () => useAppStore(selectRunRisk)
/** Transcripts kept on this device (newest first) and why the last one was not kept. */
export const useRecentFiles = () => useAppStore(useShallow(selectRecent))
