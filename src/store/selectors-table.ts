/**
 * The grouped table's expandable rows: which rows are open and their messages, fetched lazily from
 * the worker. Requests go one at a time on the `rows` lane (a newer request of a lane makes the
 * older one stale; the detail drawer has its own), in the order rows opened.
 */
import { useCallback, useRef, useState } from 'react'
import type { GroupDetail } from '../worker/protocol.ts'
import { useReport } from './selectors.ts'
import { useEngineRequest } from './useEngineRequest.ts'

/** Characters of each part an expanded row asks for (its sub-rows show that much). */
export const ROW_DETAIL_CHARS = 300

export type RowFetch =
  | { readonly state: 'loading' }
  | { readonly state: 'error'; readonly message: string }
  | { readonly state: 'ready'; readonly detail: GroupDetail }

interface Expansion {
  /** The load the expansions belong to: a new transcript starts with every row collapsed. */
  readonly key: unknown
  readonly expanded: ReadonlySet<string>
  readonly fetched: ReadonlyMap<string, RowFetch>
}

export function useRowDetails() {
  const { report } = useReport()
  const [state, setState] = useState<Expansion>(() => ({
    key: report,
    expanded: new Set(),
    fetched: new Map(),
  }))
  const queue = useRef<{ key: unknown; id: string }[]>([])
  const busy = useRef(false)
  // Its own lane, so opening rows never makes the drawer's request stale.
  const { send } = useEngineRequest('detail', { lane: 'rows' })

  // A new load: forget the old transcript's rows (React's "adjust state on prop change" pattern).
  let current = state
  if (state.key !== report) {
    current = { key: report, expanded: new Set(), fetched: new Map() }
    setState(current)
  }

  const settle = useCallback((key: unknown, id: string, fetch: RowFetch) => {
    setState((s) => (s.key !== key ? s : { ...s, fetched: new Map(s.fetched).set(id, fetch) }))
  }, [])

  const pump = useCallback(() => {
    if (busy.current) return
    const next = queue.current.shift()
    if (!next) return
    busy.current = true
    void send({ groupId: next.id, maxChars: ROW_DETAIL_CHARS }).then((settled) => {
      if (settled.status === 'done')
        settle(next.key, next.id, { state: 'ready', detail: settled.reply })
      else if (settled.status === 'error')
        settle(next.key, next.id, { state: 'error', message: settled.message })
      busy.current = false
      pump()
    })
  }, [settle, send])

  const toggle = useCallback(
    (id: string) => {
      const opening = !current.expanded.has(id)
      const known = current.fetched.get(id)
      // Fetch on first opening; a failed fetch is tried again when the row is opened again.
      const fetch = opening && (!known || known.state === 'error')
      setState((s) => {
        if (s.key !== current.key) return s
        const expanded = new Set(s.expanded)
        if (opening) expanded.add(id)
        else expanded.delete(id)
        const fetched = fetch ? new Map(s.fetched).set(id, { state: 'loading' }) : s.fetched
        return { ...s, expanded, fetched }
      })
      if (fetch) {
        queue.current.push({ key: current.key, id })
        pump()
      }
    },
    [current, pump],
  )

  return { expanded: current.expanded, fetched: current.fetched, toggle }
}
