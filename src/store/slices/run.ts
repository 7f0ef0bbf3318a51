import type { StateCreator } from 'zustand'
import { ConfigInvalidError, isStale } from '../../worker/client.ts'
import {
  DEFAULT_PRESET,
  type PresetId,
  type ReplaySeries,
  type RunRisk,
  type RunView,
} from '../../worker/protocol.ts'
import { joinFacts } from '../runView.ts'
import type { AppState } from '../store.ts'

export { DEFAULT_PRESET, isPresetId, PRESET_IDS, type PresetId } from '../../worker/protocol.ts'

export type RunStatus = 'idle' | 'running' | 'done' | 'error'

/** A problem with the config, at the path where it is. */
export interface ConfigIssue {
  readonly path: string
  readonly message: string
}

/** How far the worker is with the current run (phases, not tokens). */
export interface RunProgress {
  readonly done: number
  readonly total: number
}

/**
 * "No issues", one array: a run that starts with none keeps the same value, so the config editor
 * (every field reads the issues) does not re-render all its inputs when a run starts.
 */
const NO_ISSUES: readonly ConfigIssue[] = []

/** Quiet time after the last edit before a custom config runs (keystrokes coalesce). */
export const EDIT_DEBOUNCE_MS = 80

/**
 * Quiet time after a first-round summary is painted before its idempotence round is asked for.
 * That round is a full compaction the worker cannot interrupt (≈ 1.6× the first round): started
 * at once, the run of the next keystroke would queue behind it. Longer than the debounce plus a
 * keystroke's gap, so while someone types no settle starts; the next edit cancels the wait.
 */
export const SETTLE_QUIET_MS = 200

export interface RunSlice {
  /** The preset in use, or the one the custom config started from. */
  selectedPreset: PresetId
  /**
   * The config being edited (our versioned JSON, as an object); null while a preset is used as
   * it is. It may be invalid: `configIssues` then says where, and `summary` stays the last valid.
   */
  customConfig: unknown
  /** The run before the latest one, for the "what changed" delta. */
  previousSummary: RunView | null
  runStatus: RunStatus
  /** The latest finished run on the loaded transcript; null before the first run or after a load. */
  summary: RunView | null
  /** Set when the worker refused the config; nothing ran. */
  configIssues: readonly ConfigIssue[]
  /** An unexpected failure of the run (a bug, not a bad config). */
  runError: string | null
  runProgress: RunProgress | null
  /** Model calls replayed so far for the timeline (null when no replay is under way). */
  replayProgress: RunProgress | null
  /**
   * The latest run's replay (the timeline's series), apart from `summary` so its arrival
   * re-renders only the views that read it; null until it is in.
   */
  replay: ReplaySeries | null
  /** The replay of the run on screen is still being computed. */
  replayPending: boolean
  /**
   * The latest run's removed-then-used risk: it follows the summary (the budget paints first),
   * apart from `summary` so its arrival re-renders only the views that read it; null until in.
   */
  risk: RunRisk | null

  /** Select a preset and run it on the loaded transcript (or as soon as the exact count is in). */
  runPreset: (id: PresetId) => Promise<void>
  /**
   * Use an edited config: it runs after `EDIT_DEBOUNCE_MS` of quiet (a run in flight is
   * cancelled). `immediate` skips the wait (Apply buttons, sweep points, URL restore).
   */
  setConfig: (config: unknown, options?: { readonly immediate?: boolean }) => void
  /** Run whatever is selected (preset or custom config) again, e.g. after a re-count. */
  rerun: () => Promise<void>
  /** Forget the run: a new transcript is being loaded. */
  clearRun: () => void
}

/** Resolves after `ms`, or at once when `signal` aborts (the caller then sees it is stale). */
function quiet(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve()
    const timer = setTimeout(done, ms)
    function done() {
      clearTimeout(timer)
      signal.removeEventListener('abort', done)
      resolve()
    }
    signal.addEventListener('abort', done)
  })
}

/** Which twentieth of the replay `done` calls of `total` are (the progress bar's resolution). */
const step = (done: number, total: number) => (total > 0 ? Math.floor((done * 20) / total) : 0)

export const createRunSlice: StateCreator<AppState, [], [], RunSlice> = (set, get) => {
  // The in-flight run (and then its replay) and the pending debounced edit; not state, because
  // nothing renders them. Aborting makes the client drop the request and tell the worker to stop.
  let active: AbortController | null = null
  let debounce: ReturnType<typeof setTimeout> | null = null
  /** The follow-ups under way (settle, risk, replay): an edit makes them moot at once. */
  let following: AbortController | null = null

  const cancelDebounce = () => {
    if (debounce !== null) clearTimeout(debounce)
    debounce = null
  }

  /**
   * The summary is on screen: a first-round summary settles (the idempotence check fills in, or
   * — rarely — the settled figures replace the first ones), its risk follows (the risk fact fills
   * in), then the replay (the slow part) and the timeline fills in. One after the other: they
   * share the run's lane.
   */
  const followUps = async (controller: AbortController, first: RunView) => {
    following = controller
    set({ replayProgress: { done: 0, total: 0 } })
    const { engine } = get()
    try {
      const riskOf = async (summary: RunView) => {
        const risk =
          summary.risk ?? (await engine.request('risk', {}, { signal: controller.signal }))
        if (active === controller) set({ risk })
      }
      await riskOf(first)
      if (first.settling && active === controller) {
        await quiet(SETTLE_QUIET_MS, controller.signal)
        if (active !== controller) return
        const settled = await engine.request('settle', {}, { signal: controller.signal })
        if (active !== controller) return
        if (settled.kind === 'same') {
          set({ summary: { ...first, invariants: settled.invariants, settling: false } })
        } else {
          // The later rounds changed the result: the settled figures replace the first ones.
          const summary = joinFacts(settled.summary, get().groupFacts)
          set({ summary, risk: null })
          await riskOf(summary)
        }
      }
      if (active !== controller) return
      const series = await get().engine.request(
        'replay',
        {},
        {
          signal: controller.signal,
          onProgress: (p) => {
            if (active !== controller) return
            // Only the bar shows it, and 20 steps fill it: a store update per tick (the replay
            // sends one every few calls) woke every subscriber while the views rendered the edit.
            const shown = get().replayProgress
            if (
              shown &&
              shown.total === p.total &&
              step(shown.done, p.total) === step(p.done, p.total)
            )
              return
            set({ replayProgress: { done: p.done, total: p.total } })
          },
        },
      )
      if (active !== controller) return
      active = null
      set({ replayProgress: null, replay: series, replayPending: false })
    } catch (error) {
      if (active !== controller) return
      active = null
      set({ replayProgress: null, replayPending: false })
      if (!isStale(error)) set({ runError: error instanceof Error ? error.message : String(error) })
    } finally {
      if (following === controller) following = null
    }
  }

  /** An edit came: the follow-ups of the run on screen are moot (its run follows the debounce). */
  const dropFollowUps = () => {
    const handle = following
    if (!handle || active !== handle) return
    active = null
    following = null
    handle.abort()
  }

  /**
   * The run on screen stays (an invalid edit ran nothing) but its follow-ups were dropped for
   * the edit: ask for them again, so its idempotence check and timeline still come.
   */
  const resumeFollowUps = () => {
    const { summary, risk, replayPending } = get()
    if (!summary || active || (!summary.settling && !replayPending && risk)) return
    const controller = new AbortController()
    active = controller
    void followUps(controller, risk && !summary.risk ? { ...summary, risk } : summary)
  }

  const start = async () => {
    const { status, report, progress, customConfig, selectedPreset } = get()
    // Once loaded, a run prices with the estimate while the exact count is under way (the first
    // budget paints at once, issue 14e); the run that follows the exact count replaces it.
    if (status !== 'loaded' || !report || (progress && progress.phase === 'parse')) return
    active?.abort()
    const controller = new AbortController()
    active = controller
    set({ runStatus: 'running', runError: null, configIssues: NO_ISSUES, runProgress: null })
    try {
      const params =
        customConfig === null ? { config: null, preset: selectedPreset } : { config: customConfig }
      const wire = await get().engine.request('run', params, {
        signal: controller.signal,
        onProgress: (p) => {
          if (active === controller) set({ runProgress: { done: p.done, total: p.total } })
        },
      })
      if (active !== controller) return
      const reply = joinFacts(wire, get().groupFacts)
      // The summary goes on screen now, without the replay (it is asked for next).
      set({
        runStatus: 'done',
        summary: reply,
        replay: null,
        replayPending: true,
        risk: reply.risk,
        previousSummary: get().summary,
        runProgress: null,
      })
      // Priced with the estimate while the exact count was under way, and the count came in
      // meanwhile (its own rerun left this run going): run again on the exact counts, and replay
      // that one instead.
      const exact = get().exactReport
      if (exact && reply.tokenizer !== exact.tokens.tokenizer) {
        active = null
        void start()
        return
      }
      void followUps(controller, reply)
    } catch (error) {
      if (active !== controller) return
      active = null
      if (isStale(error)) {
        // Superseded by a load or count, not by another run: fall back to what we had.
        set({ runStatus: get().summary ? 'done' : 'idle', runProgress: null })
      } else if (error instanceof ConfigInvalidError) {
        // The last valid result stays on screen; the editor shows where the config is wrong.
        set({
          runStatus: 'error',
          configIssues: error.issues,
          runError: 'The config is invalid; nothing ran.',
          runProgress: null,
        })
        resumeFollowUps()
      } else {
        const message = error instanceof Error ? error.message : String(error)
        set({ runStatus: 'error', runError: message, runProgress: null })
      }
    }
  }

  return {
    selectedPreset: DEFAULT_PRESET,
    customConfig: null,
    previousSummary: null,
    runStatus: 'idle',
    summary: null,
    configIssues: NO_ISSUES,
    runError: null,
    runProgress: null,
    replayProgress: null,
    replay: null,
    replayPending: false,
    risk: null,

    runPreset: async (id) => {
      cancelDebounce()
      set({ selectedPreset: id, customConfig: null })
      await start()
    },

    setConfig: (config, options) => {
      cancelDebounce()
      dropFollowUps()
      set({ customConfig: config })
      if (options?.immediate) {
        void start()
        return
      }
      debounce = setTimeout(() => {
        debounce = null
        void start()
      }, EDIT_DEBOUNCE_MS)
    },

    rerun: () => {
      cancelDebounce()
      return start()
    },

    clearRun: () => {
      cancelDebounce()
      const handle = active
      active = null
      handle?.abort()
      set({
        runStatus: 'idle',
        summary: null,
        previousSummary: null,
        replayProgress: null,
        replay: null,
        replayPending: false,
        risk: null,
        configIssues: NO_ISSUES,
        runError: null,
        runProgress: null,
      })
    },
  }
}
