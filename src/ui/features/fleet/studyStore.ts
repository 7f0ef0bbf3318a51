/**
 * Fleet sweep and fleet compare (issue 16): the fleet's files run once per config variant — each
 * value of a swept parameter, or two configs side by side — in a pool of their own (so cancelling
 * a study leaves the fleet's own run alone). Each variant keeps its rows; the panels aggregate
 * them with the same `aggregate` the fleet and `evaluate` use.
 */
import { create } from 'zustand'
import type { FleetRow } from '../../../fleet/types.ts'
import { FleetPool } from '../../../store/index.ts'
import { fleetSources } from './fleetStore.ts'
import { readSource } from './sources.ts'

export interface Variant {
  readonly label: string
  /** The swept value, for charts. */
  readonly value?: number
  readonly config: unknown
  readonly preset?: string
}

export interface VariantResult {
  readonly variant: Variant
  readonly rows: readonly FleetRow[]
  readonly failed: number
  /** Why every file failed alike (an invalid config at this value). */
  readonly invalid: string | null
}

export interface StudyState {
  readonly kind: 'sweep' | 'compare' | null
  readonly running: boolean
  readonly done: number
  readonly total: number
  readonly results: readonly VariantResult[]
  readonly title: string
}

export const useStudyStore = create<StudyState>()(() => ({
  kind: null,
  running: false,
  done: 0,
  total: 0,
  results: [],
  title: '',
}))

let pool: FleetPool | null = null
let generation = 0

export function cancelStudy(): void {
  generation++
  pool?.dispose()
  pool = null
  useStudyStore.setState({ running: false })
}

/** Evaluate every fleet file under every variant; results fill in as files finish. */
export function runStudy(
  kind: 'sweep' | 'compare',
  title: string,
  variants: readonly Variant[],
): void {
  cancelStudy()
  const mine = ++generation
  const files = fleetSources()
  pool = new FleetPool()
  const rows: FleetRow[][] = variants.map(() => [])
  const failed = variants.map(() => 0)
  const invalid: (string | null)[] = variants.map(() => null)
  let done = 0
  let timer: ReturnType<typeof setTimeout> | null = null
  const publish = () => {
    timer = null
    if (mine !== generation) return
    useStudyStore.setState({
      done,
      running: done < variants.length * files.length,
      results: variants.map((variant, k) => ({
        variant,
        rows: [...(rows[k] as FleetRow[])],
        failed: failed[k] ?? 0,
        invalid: invalid[k] ?? null,
      })),
    })
  }
  useStudyStore.setState({
    kind,
    title,
    running: true,
    done: 0,
    total: variants.length * files.length,
    results: [],
  })
  variants.forEach((variant, k) => {
    for (const source of files) {
      void pool
        ?.evaluate({
          name: source.name,
          // Bytes, not the Blob (every variant reads the file again); an unreadable one fails as in the fleet.
          read: () =>
            source.unreadable === undefined ? source.file.arrayBuffer() : readSource(source),
          config: variant.config,
          ...(variant.preset ? { preset: variant.preset } : {}),
        })
        .then((result) => {
          if (mine !== generation) return
          done++
          if (result.kind === 'evaluated') {
            for (const o of result.outcomes) {
              if (o.kind === 'row') (rows[k] as FleetRow[]).push(o.row)
              else failed[k] = (failed[k] ?? 0) + 1
            }
          } else if (result.kind === 'invalid') {
            failed[k] = (failed[k] ?? 0) + 1
            invalid[k] = result.issues.map((i) => `${i.path}: ${i.message}`).join('; ')
          }
          if (done === variants.length * files.length) publish()
          else timer ??= setTimeout(publish, 300)
        })
    }
  })
}
