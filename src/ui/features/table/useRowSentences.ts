/**
 * The sentences of the decisions the table's rows show (one per group, `decisionsByGroup`). A
 * run's reply leaves every sentence out (the engine writes them when read, issue 14): once the
 * rows are on screen the table asks for theirs, and their tooltips, find and the query's text
 * terms read them when they are in. Null until then, and for a run whose sentences are not in.
 */
import { useMemo } from 'react'
import { useEngineRequest, type RunView } from '../../../store/index.ts'
import { decisionsByGroup } from './groupRows.ts'

/** Decision index → its sentence, for the run on screen. */
export type RowSentences = ReadonlyMap<number, string>

export function useRowSentences(summary: RunView | null): RowSentences | null {
  const decisions = summary?.decisions
  const auto = useMemo(() => {
    if (!decisions || decisions.length === 0) return null
    return { run: decisions.run, indices: [...decisionsByGroup(decisions).values()] }
  }, [decisions])
  const { last } = useEngineRequest('sentences', { auto })
  return useMemo(() => {
    const reply = last?.reply
    if (!reply || !decisions || reply.run !== decisions.run) return null
    const out = new Map<number, string>()
    reply.indices.forEach((i, k) => out.set(i, reply.detail[k] ?? ''))
    return out
  }, [last, decisions])
}
