/**
 * Wiring between the store and the URL fragment (the codec is `url.ts`): restore once at
 * startup, then mirror every change with `history.replaceState` — no reload, no history entry
 * per keystroke, and debounced because browsers throttle frequent URL updates.
 */
import type { StoreApi } from 'zustand'
import type { AppState } from './store.ts'
import { decodeUrlState, encodeUrlState, urlStateOf, type UrlState } from './url.ts'

/** Quiet time before the URL follows the store (Safari allows ~100 updates per 30 s). */
export const URL_DEBOUNCE_MS = 250

type Store = Pick<StoreApi<AppState>, 'getState' | 'subscribe'>

/**
 * Apply what the fragment states. The config goes in first — before any transcript is loaded —
 * so the first run already uses it. Filters apply at once. The brush and the selection belong
 * to the run, so they wait for the first summary (a selection only if that run has the group).
 * Resolves once the config and filters are applied; `settled` once the rest was (or the load failed).
 */
export async function restoreUrlState(
  fragment: string,
  store: Store,
): Promise<{ readonly settled: Promise<void> }> {
  const url = await decodeUrlState(fragment)
  const s = store.getState()
  if (url.preset) void s.runPreset(url.preset)
  if (url.config !== undefined) s.setConfig(url.config, { immediate: true })
  if (url.chip) s.setChip(url.chip)
  if (url.query !== undefined) s.setQuery(url.query)
  if (url.detailTab) s.setDetailTab(url.detailTab)
  if (url.brush === undefined && url.selected === undefined) return { settled: Promise.resolve() }
  return { settled: applyWithRun(url, store) }
}

async function applyWithRun(url: Partial<UrlState>, store: Store): Promise<void> {
  const ready = (state: AppState) => state.status === 'error' || state.summary !== null
  // Wait outside the store's notify loop: applying from inside a listener would re-enter it.
  if (!ready(store.getState())) {
    await new Promise<void>((resolve) => {
      const unsubscribe = store.subscribe((state) => {
        if (!ready(state)) return
        unsubscribe()
        resolve()
      })
    })
  }
  const state = store.getState()
  const summary = state.summary
  if (!summary) return
  if (url.brush) state.setBrush(url.brush)
  if (url.selected && summary.groups.ids.includes(url.selected)) {
    state.selectGroup(url.selected, { open: url.drawerOpen === true })
  }
}

function sameState(a: UrlState, b: UrlState): boolean {
  return (
    a.preset === b.preset &&
    a.config === b.config &&
    a.chip === b.chip &&
    a.query === b.query &&
    a.brush?.from === b.brush?.from &&
    a.brush?.to === b.brush?.to &&
    a.selected === b.selected &&
    a.drawerOpen === b.drawerOpen &&
    a.detailTab === b.detailTab
  )
}

/**
 * Run `fn` when the page is idle (within a second). The config's encoding (a compression stream)
 * and `history.replaceState` took ~15 ms of the main thread per edit, landing 250 ms after a
 * keystroke: in the middle of the run's reply and the views' render on a busy machine.
 */
function whenIdle(fn: () => void): void {
  if (typeof globalThis.requestIdleCallback === 'function') {
    globalThis.requestIdleCallback(fn, { timeout: 1000 })
  } else {
    fn()
  }
}

/** Keep the fragment in step with the store; returns the unsubscribe function. */
export function startUrlSync(store: Store, delayMs = URL_DEBOUNCE_MS): () => void {
  let last = urlStateOf(store.getState())
  let timer: ReturnType<typeof setTimeout> | null = null
  // Encoding a config is async: a slow older encode must not overwrite a newer URL.
  let sequence = 0

  const write = async () => {
    timer = null
    const mine = ++sequence
    const fragment = await encodeUrlState(last)
    if (mine !== sequence) return
    const { pathname, search } = globalThis.location
    const next = `${pathname}${search}${fragment ? `#${fragment}` : ''}`
    if (next !== `${pathname}${search}${globalThis.location.hash}`) {
      globalThis.history.replaceState(globalThis.history.state, '', next)
    }
  }

  const unsubscribe = store.subscribe((state) => {
    const next = urlStateOf(state)
    if (sameState(next, last)) return
    last = next
    if (timer !== null) clearTimeout(timer)
    timer = setTimeout(() => whenIdle(() => void write()), delayMs)
  })
  // Write once now: the restored state may differ from the fragment it came from.
  void write()
  return () => {
    unsubscribe()
    if (timer !== null) clearTimeout(timer)
  }
}
