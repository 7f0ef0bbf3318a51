/**
 * The fleet's state (issue 16): the files, each file's status and rows, the run under way. A
 * store of its own beside the app store, so the fleet can live alongside the single-transcript
 * workbench (open a row, come back) without touching the workbench's slices. Rows arrive from the
 * pool one file at a time; they are gathered here and published at most every FLUSH_MS, so 10,000
 * files do not mean 10,000 re-renders.
 */
import { create } from 'zustand'
import {
  DEFAULT_PRESET,
  FleetPool,
  type FleetTaskResult,
  type LabStore,
} from '../../../store/index.ts'
import type { FleetEntry } from './fleetModel.ts'
import { readSource, type FleetSource } from './sources.ts'

const FLUSH_MS = 300

export interface FleetRunState {
  readonly generation: number
  readonly running: boolean
  readonly startedAt: number | null
  /** Wall time of the last complete run (ms), null while running or never run. */
  readonly elapsedMs: number | null
  readonly config: string
}

export interface FleetState {
  /** The fleet view is on screen (else the workbench). */
  readonly open: boolean
  readonly entries: readonly FleetEntry[]
  readonly run: FleetRunState
  /** The config is invalid: every file would fail alike, so it is said once. */
  readonly configProblem: string | null
  /** The entry whose conversation the workbench shows (opened from the fleet). */
  readonly openedKey: string | null
  readonly poolSize: number
}

const sources = new Map<string, FleetSource>()
const working = new Map<string, FleetEntry>()
let order: string[] = []
let pool: FleetPool | null = null
/** The workbench's lab store the fleet follows (bound by `followConfig`). */
let lab: LabStore | null = null
let flushTimer: ReturnType<typeof setTimeout> | null = null

export const useFleetStore = create<FleetState>()(() => ({
  open: false,
  entries: [],
  run: { generation: 0, running: false, startedAt: null, elapsedMs: null, config: '' },
  configProblem: null,
  openedKey: null,
  poolSize: 0,
}))

function poolOf(): FleetPool {
  pool ??= new FleetPool()
  if (useFleetStore.getState().poolSize !== pool.size)
    useFleetStore.setState({ poolSize: pool.size })
  return pool
}

function publish(): void {
  flushTimer = null
  useFleetStore.setState({ entries: order.map((k) => working.get(k) as FleetEntry) })
}

function schedule(now = false): void {
  if (now) {
    if (flushTimer) clearTimeout(flushTimer)
    publish()
    return
  }
  flushTimer ??= setTimeout(publish, FLUSH_MS)
}

function update(key: string, patch: Partial<FleetEntry>): void {
  const e = working.get(key)
  if (e) working.set(key, { ...e, ...patch })
  schedule()
}

/** What the workbench runs now: its edited config, else its preset. */
function currentConfig(): { config: unknown; preset?: string; label: string } {
  if (!lab) return { config: null, preset: DEFAULT_PRESET, label: DEFAULT_PRESET }
  const { customConfig, selectedPreset } = lab.getState()
  if (customConfig === null) return { config: null, preset: selectedPreset, label: selectedPreset }
  const name = (customConfig as { name?: unknown }).name
  return { config: customConfig, label: typeof name === 'string' ? name : 'edited config' }
}

function settle(key: string, generation: number, result: FleetTaskResult): void {
  if (useFleetStore.getState().run.generation !== generation) return
  switch (result.kind) {
    case 'cancelled':
      update(key, { status: 'cancelled', progress: null })
      break
    case 'invalid':
      useFleetStore.setState({
        configProblem: result.issues.map((i) => `${i.path}: ${i.message}`).join('; '),
      })
      update(key, { status: 'cancelled', progress: null })
      break
    case 'evaluated': {
      const rows = []
      const failures = []
      for (const o of result.outcomes) {
        if (o.kind === 'row') rows.push(o.row)
        else failures.push(o.failure.message)
      }
      update(key, {
        status: rows.length === 0 ? 'failed' : 'done',
        progress: null,
        rows,
        failure: failures.length > 0 ? failures.join('; ') : null,
      })
      break
    }
    default: {
      const never: never = result
      return never
    }
  }
  if (poolOf().pending === 0) {
    const { run } = useFleetStore.getState()
    useFleetStore.setState({
      run: {
        ...run,
        running: false,
        elapsedMs: run.startedAt === null ? null : performance.now() - run.startedAt,
      },
    })
    schedule(true)
  }
}

/** Evaluate every file with the workbench's current config; a run under way is cancelled first. */
export function runFleet(): void {
  if (order.length === 0) return
  const p = poolOf()
  p.cancelAll()
  const { config, preset, label } = currentConfig()
  const generation = useFleetStore.getState().run.generation + 1
  useFleetStore.setState({
    configProblem: null,
    run: {
      generation,
      running: true,
      startedAt: performance.now(),
      elapsedMs: null,
      config: label,
    },
  })
  for (const key of order) {
    update(key, { status: 'queued', progress: null })
    const source = sources.get(key) as FleetSource
    void p
      .evaluate({
        name: source.name,
        // The Blob itself: the worker reads it, so no file is copied on the main thread; a picked
        // file is read here (asynchronously) and its bytes transferred (see `readHere`).
        read: () => readSource(source),
        config,
        ...(preset ? { preset } : {}),
        onStart: () => update(key, { status: 'running', progress: 0 }),
        onProgress: (done, total) => update(key, { progress: total > 0 ? done / total : null }),
      })
      .then((result) => settle(key, generation, result))
  }
  schedule(true)
}

/** Add files (a name already in the fleet is replaced) and run them all with the current config. */
export function addSources(added: readonly FleetSource[]): void {
  for (const s of added) {
    if (!sources.has(s.name)) order.push(s.name)
    sources.set(s.name, s)
    working.set(s.name, {
      key: s.name,
      name: s.name,
      status: 'queued',
      progress: null,
      rows: [],
      failure: null,
    })
  }
  useFleetStore.setState({ open: true })
  runFleet()
}

/** The fleet's files, in the order they were added (for sweeps and comparisons). */
export function fleetSources(): FleetSource[] {
  return order.map((k) => sources.get(k) as FleetSource)
}

export function cancelFleet(): void {
  pool?.cancelAll()
}

export function clearFleet(): void {
  pool?.cancelAll()
  sources.clear()
  working.clear()
  order = []
  const { run } = useFleetStore.getState()
  useFleetStore.setState({
    run: { ...run, generation: run.generation + 1, running: false, startedAt: null },
    configProblem: null,
    openedKey: null,
  })
  schedule(true)
}

export function setFleetOpen(open: boolean): void {
  useFleetStore.setState({ open })
}

/**
 * Open one conversation of the fleet in the single-transcript workbench (an item of a multi-item
 * file: that item); the fleet stays as it is.
 */
export function openInWorkbench(key: string, item: number | null = null): void {
  const source = sources.get(key)
  if (!source) return
  const base = source.name.split('/').pop() ?? source.name
  const file =
    source.file instanceof File && source.file.name === base
      ? source.file
      : new File([source.file], base)
  const store = lab
  if (!store) return
  useFleetStore.setState({ open: false, openedKey: key })
  const { loadFiles } = store.getState()
  if (item === null) void loadFiles([file])
  else void loadFiles([file]).then(() => store.getState().openItem(item))
}

/**
 * Bind the fleet to the workbench's lab store (the fleet runs its config, and opens files in it),
 * and re-run the fleet (debounced) whenever that config changes. Returns the unbind.
 */
export function followConfig(store: LabStore, delayMs = 300): () => void {
  lab = store
  let timer: ReturnType<typeof setTimeout> | null = null
  const unsubscribe = store.subscribe((state, prev) => {
    if (state.selectedPreset === prev.selectedPreset && state.customConfig === prev.customConfig)
      return
    if (order.length === 0) return
    if (timer) clearTimeout(timer)
    timer = setTimeout(runFleet, delayMs)
  })
  return () => {
    if (timer) clearTimeout(timer)
    unsubscribe()
    if (lab === store) lab = null
  }
}
