/**
 * Where each validation issue of the worker is shown: at the form field its path names, or, when
 * the form has no field for that exact path (a refinement on `window`, an unknown param key, a
 * bad item of a list), at the nearest enclosing field or card that the form does render.
 */
import type { ConfigIssue } from '../../../store/index.ts'
import { isRecord, isWithin, listAt, pathText, type Path } from '../../../store/index.ts'
import type { FieldSpec } from './schemaFields.ts'

/** The field lists the form is built from (window and protections from the config schema). */
export interface FormShape {
  readonly window: readonly FieldSpec[]
  readonly protections: readonly FieldSpec[]
  /** The params fields of a strategy (empty for an unknown one). */
  readonly params: (strategy: string) => readonly FieldSpec[]
}

function specPaths(base: Path, specs: readonly FieldSpec[], out: string[]): void {
  for (const spec of specs) {
    const path = [...base, spec.key]
    out.push(pathText(path))
    if (spec.field.kind === 'object') specPaths(path, spec.field.fields, out)
  }
}

function triggerAndTarget(base: Path, step: Record<string, unknown>, out: string[]): void {
  if (isRecord(step.trigger)) {
    const trigger = [...base, 'trigger']
    out.push(pathText(trigger), pathText([...trigger, 'mode']))
    const conditions = [...trigger, 'conditions']
    out.push(pathText(conditions))
    listAt(step, ['trigger', 'conditions']).forEach((_, j) => {
      out.push(pathText([...conditions, j]), pathText([...conditions, j, 'over']))
    })
  }
  if (isRecord(step.target)) {
    out.push(pathText([...base, 'target']), pathText([...base, 'target', 'under']))
  }
}

/** Every path the form renders a field, card or section for, for this config. */
export function formFieldPaths(config: unknown, shape: FormShape): string[] {
  const out = ['', 'window', 'protections', 'pipeline', 'fallback']
  specPaths(['window'], shape.window, out)
  specPaths(['protections'], shape.protections, out)
  listAt(config, ['pipeline']).forEach((raw, i) => {
    const base: Path = ['pipeline', i]
    out.push(pathText(base))
    if (!isRecord(raw)) return
    out.push(pathText([...base, 'strategy']), pathText([...base, 'enabled']))
    out.push(pathText([...base, 'params']))
    const strategy = typeof raw.strategy === 'string' ? raw.strategy : ''
    specPaths([...base, 'params'], shape.params(strategy), out)
    triggerAndTarget(base, raw, out)
  })
  out.push('fallback.enabled', 'fallback.strict')
  const fallback = isRecord(config) ? config.fallback : undefined
  if (isRecord(fallback) && isRecord(fallback.target))
    out.push('fallback.target', 'fallback.target.under')
  return out
}

/**
 * Issues by the field that shows them: each goes to the longest rendered path that is the
 * issue's path or encloses it (`(root)` and unmatched paths go to `''`).
 */
export function assignIssues(
  issues: readonly ConfigIssue[],
  fieldPaths: readonly string[],
): ReadonlyMap<string, readonly ConfigIssue[]> {
  const out = new Map<string, ConfigIssue[]>()
  for (const issue of issues) {
    const path = issue.path === '(root)' ? '' : issue.path
    let best = ''
    for (const candidate of fieldPaths) {
      if (candidate.length > best.length && isWithin(path, candidate)) best = candidate
    }
    const list = out.get(best)
    if (list) list.push(issue)
    else out.set(best, [issue])
  }
  return out
}
