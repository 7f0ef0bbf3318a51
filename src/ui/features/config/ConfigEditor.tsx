import { useCallback, useEffect, useMemo } from 'react'
import {
  currentWorkingConfig,
  useCatalogState,
  useConfigActions,
  useConfigCatalog,
  useConfigIssues,
  useIsConfigEdited,
  useSelectedPreset,
  useWorkingConfig,
  useLabStore,
} from '../../../store/index.ts'
import type { ConfigCatalog, ConfigIssue } from '../../../store/index.ts'
import { Section } from '../../components/Section.tsx'
import { TID } from '../../testids.ts'
import { getIn, isRecord, pathText, setIn, type Path } from '../../../store/index.ts'
import './config.css'
import { DeltaLine } from './DeltaLine.tsx'
import { EditorContext, FieldApiContext, type EditorApi, type FieldApi } from './editorContext.ts'
import { IssueList } from './IssueList.tsx'
import { assignIssues, formFieldPaths, type FormShape } from './issues.ts'
import { JsonView } from './JsonView.tsx'
import { PipelineEditor } from './PipelineEditor.tsx'
import { objectFields } from './schemaFields.ts'
import { FallbackForm, ProtectionsForm, WindowForm } from './SettingsForms.tsx'

const NO_PLACES: ReadonlyMap<string, readonly ConfigIssue[]> = new Map()
const NO_FIELD_ISSUES: readonly ConfigIssue[] = []

function shapeOf(catalog: ConfigCatalog): FormShape {
  const props = ['properties']
  const params = new Map(catalog.strategies.map((s) => [s.id, objectFields(s.paramsSchema)]))
  return {
    window: objectFields(getIn(catalog.configSchema, [...props, 'window'])),
    protections: objectFields(getIn(catalog.configSchema, [...props, 'protections'])),
    params: (strategy) => params.get(strategy) ?? [],
  }
}

function Toolbar() {
  const preset = useSelectedPreset()
  const edited = useIsConfigEdited()
  const { runPreset } = useConfigActions()
  return (
    <div className="cfg-toolbar">
      <span className={edited ? 'pill medium' : 'pill neutral'}>
        {edited ? `edited from ${preset}` : preset}
      </span>
      <button
        type="button"
        className="button"
        disabled={!edited}
        data-testid={TID.configReset}
        onClick={() => void runPreset(preset)}
      >
        Reset to preset
      </button>
    </div>
  )
}

/**
 * The config editor (SPEC §6): the working config (the edited one, else the selected preset's) as
 * forms generated from the worker's schemas and as JSON, both writing through `setConfig`, so
 * every edit re-runs in the worker (debounced) and the budget, strip, timeline and table follow.
 */
export function ConfigEditor() {
  const lab = useLabStore()
  const catalog = useConfigCatalog()
  const { catalogStatus, catalogError } = useCatalogState()
  const config = useWorkingConfig()
  const issues = useConfigIssues()
  const { loadCatalog, setConfig } = useConfigActions()

  useEffect(() => {
    void loadCatalog()
  }, [loadCatalog])

  const shape = useMemo(() => (catalog ? shapeOf(catalog) : null), [catalog])
  // No issues (the usual case) is one constant map: the fields' API then outlives keystrokes.
  const placed = useMemo(
    () =>
      shape && issues.length > 0 ? assignIssues(issues, formFieldPaths(config, shape)) : NO_PLACES,
    [issues, config, shape],
  )
  // Built from the store at call time: two quick edits never overwrite each other.
  const update = useCallback(
    (path: Path, value: unknown) => setConfig(setIn(currentWorkingConfig(lab), path, value)),
    [setConfig, lab],
  )
  const fields = useMemo<FieldApi>(
    () => ({ update, issuesAt: (path) => placed.get(pathText(path)) ?? NO_FIELD_ISSUES }),
    [update, placed],
  )
  const api = useMemo<EditorApi>(() => ({ config, ...fields }), [config, fields])

  return (
    <Section title="Config" aside={<Toolbar />} testId={TID.configEditor} className="cfg">
      {catalogStatus === 'error' ? (
        <div className="alert" role="alert">
          <span className="alert-title">Could not read the presets: {catalogError}</span>
        </div>
      ) : null}
      {!shape || config === null ? (
        <p className="hint">Reading presets and strategies…</p>
      ) : (
        <EditorContext.Provider value={api}>
          <FieldApiContext.Provider value={fields}>
            <DeltaLine />
            <IssueList issues={issues} />
            <div className="cfg-layout">
              <div className="cfg-forms">
                {isRecord(config) ? (
                  <>
                    <WindowForm specs={shape.window} />
                    <ProtectionsForm specs={shape.protections} />
                    <PipelineEditor />
                    <FallbackForm />
                  </>
                ) : (
                  <p className="hint">
                    The forms need a JSON object: fix the JSON to edit it here.
                  </p>
                )}
              </div>
              <JsonView config={config} />
            </div>
          </FieldApiContext.Provider>
        </EditorContext.Provider>
      )}
    </Section>
  )
}
