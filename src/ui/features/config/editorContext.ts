/**
 * What every form field of the editor needs: the working config, one way to change a value at a
 * path (which re-runs, debounced) and the validation issues placed at its path. A context rather
 * than props, because fields sit four levels deep (editor → step → trigger → condition).
 */
import { createContext, useContext } from 'react'
import type { ConfigIssue } from '../../../store/index.ts'
import type { Path } from '../../../store/index.ts'

export interface EditorApi {
  readonly config: unknown
  /** Set `value` at `path` of the latest working config (undefined removes a key). */
  update(path: Path, value: unknown): void
  /** The worker's issues that this field or card shows. */
  issuesAt(path: Path): readonly ConfigIssue[]
}

export const EditorContext = createContext<EditorApi | null>(null)

export function useEditor(): EditorApi {
  const api = useContext(EditorContext)
  if (!api) throw new Error('useEditor outside <ConfigEditor>')
  return api
}

/**
 * What an input needs besides its value: `update` and the issues. Apart from `EditorApi` because
 * that one changes with every keystroke (it carries the config): read by the ~90 inputs, it
 * re-rendered every one of them per keystroke, and React writes an input's name and type again
 * on each update. This one stays the same while the issues do (none, usually), so a memoised
 * field re-renders only when its own value changes.
 */
export type FieldApi = Omit<EditorApi, 'config'>

export const FieldApiContext = createContext<FieldApi | null>(null)

export function useFieldApi(): FieldApi {
  const api = useContext(FieldApiContext)
  if (!api) throw new Error('useFieldApi outside <ConfigEditor>')
  return api
}
