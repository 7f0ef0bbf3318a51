/**
 * LangChain (JS, `langchain` 1.x) export: `clear-tool-uses` steps become `ClearToolUsesEdit`s of
 * one `contextEditingMiddleware`, `summarize` becomes `summarizationMiddleware`; the snippet is a
 * `middleware` array for `createAgent`.
 *
 * There is no LangChain preset of our own: the closest is `anthropic-clear-tool-uses`, since
 * LangChain's ClearToolUsesEdit is a clone of that Anthropic edit and carries every one of its
 * settings (the trigger shifts by one token: LangChain fires at ≥, we at >).
 */
import type { CompactionConfig } from '../../config/schema.ts'
import { clearToolUsesEdit, summarization, type Env } from './langchain/steps.ts'
import { usableTokens } from './langchain/triggers.ts'
import { exporterName, oneLine } from './index-helpers.ts'
import type { ExportTarget, LossyWarning, TargetOutput } from './types.ts'

function configWarnings(config: CompactionConfig, hasSummary: boolean, w: LossyWarning[]): void {
  const pr = config.protections
  if (pr.recentTurns > 0) {
    w.push({
      path: 'protections.recentTurns',
      message: 'LangChain middleware cannot protect the last user turns.',
      instead: 'Only each middleware’s keep setting protects recent messages.',
    })
  }
  if (pr.pinned.length > 0) {
    w.push({
      path: 'protections.pinned',
      message: 'LangChain middleware cannot pin messages.',
      instead: 'Pinned messages are cleared or summarised like any other.',
    })
  }
  if (pr.tools.length > 0 && hasSummary) {
    w.push({
      path: 'protections.tools',
      message:
        'summarizationMiddleware has no per-tool protection (ClearToolUsesEdit gets them as excludeTools).',
      instead: 'Calls to these tools are summarised like any other.',
    })
  }
  if (config.fallback.enabled) {
    w.push({
      path: 'fallback',
      message: 'LangChain has no final fallback that drops the oldest messages.',
      instead: 'The context may stay over the window.',
    })
  }
}

/** LangChain runs every beforeModel hook (summarisation) before any wrapModelCall (context editing). */
function orderWarning(config: CompactionConfig, w: LossyWarning[]): void {
  const steps = config.pipeline
  const firstClear = steps.findIndex((s) => s.enabled && s.strategy === 'clear-tool-uses')
  let lastSummary = -1
  steps.forEach((s, i) => {
    if (s.enabled && s.strategy === 'summarize') lastSummary = i
  })
  if (firstClear >= 0 && lastSummary > firstClear) {
    w.push({
      path: `pipeline[${lastSummary}].strategy`,
      message:
        'LangChain summarises (before the model call) ahead of any context editing (around the model call), whatever the order in the middleware array.',
      instead:
        'History is summarised first; old tool results in what is left are cleared afterwards.',
    })
  }
}

function build(
  config: CompactionConfig,
  w: LossyWarning[],
): { middleware: string[]; names: string[]; does: string[] } {
  const base = {
    usable: usableTokens(config),
    warnings: w,
    protectedTools: config.protections.tools,
  }
  // Summaries act before the model call, edits around it: the clauses follow that order.
  const summaryEnv: Env = { ...base, does: [] }
  const editEnv: Env = { ...base, does: [] }
  const edits: string[] = []
  const summaries: string[] = []
  config.pipeline.forEach((step, i) => {
    if (!step.enabled) return
    if (step.strategy === 'clear-tool-uses') edits.push(clearToolUsesEdit(step, i, editEnv))
    else if (step.strategy === 'summarize') summaries.push(summarization(step, i, summaryEnv))
    else {
      w.push({
        path: `pipeline[${i}]`,
        message: `LangChain has no middleware equivalent of ${step.strategy}.`,
        instead: 'The step is left out of the snippet.',
      })
    }
  })
  const middleware = [...summaries]
  const names = summaries.length > 0 ? ['summarizationMiddleware'] : []
  if (edits.length > 0) {
    middleware.push(
      `contextEditingMiddleware({\n    edits: [\n${edits.map((e) => `      ${e},`).join('\n')}\n    ],\n  })`,
    )
    names.push('ClearToolUsesEdit', 'contextEditingMiddleware')
  }
  return { middleware, names, does: [...summaryEnv.does, ...editEnv.does] }
}

/** LangChain (JS) middleware; reproduces `anthropic-clear-tool-uses` with no loss. */
export const langchainTarget: ExportTarget = {
  id: 'langchain',
  label: 'LangChain (JS)',
  preset: 'anthropic-clear-tool-uses',
  export(config: CompactionConfig): TargetOutput {
    const w: LossyWarning[] = []
    const hasSummary = config.pipeline.some((s) => s.enabled && s.strategy === 'summarize')
    configWarnings(config, hasSummary, w)
    const { middleware, names, does } = build(config, w)
    orderWarning(config, w)
    const summary =
      does.length === 0
        ? 'LangChain leaves the conversation as it is: no step of this config maps to a middleware.'
        : `LangChain ${does.join(', and ')}.`
    const lines = [
      `// ${summary}`,
      `// Config ${JSON.stringify(oneLine(config.name))} as LangChain (JS) agent middleware, exported by ${exporterName()};`,
      '// compare the lossy-export warnings shown with it before relying on it.',
      ...(names.length > 0 ? [`import { ${[...names].sort().join(', ')} } from 'langchain'`] : []),
      '',
      ...(hasSummary
        ? [
            '// The model that writes summaries (any model createAgent accepts).',
            "const summaryModel = 'openai:gpt-4.1-mini'",
            '',
          ]
        : []),
      '// Use: createAgent({ model, tools, middleware: compactionMiddleware })',
      middleware.length === 0
        ? 'export const compactionMiddleware = []'
        : `export const compactionMiddleware = [\n${middleware.map((m) => `  ${m},`).join('\n')}\n]`,
      '',
    ]
    const notes = [
      'LangChain counts tokens with its approximate counter (about 4 characters a token) unless tokenCountMethod: "model" is set, so its thresholds are reached at slightly different sizes than ours.',
    ]
    if (names.includes('contextEditingMiddleware')) {
      notes.push(
        'contextEditingMiddleware edits only the request sent to the model (the stored history keeps the results) and always drops tool messages that answer no earlier tool call.',
      )
    }
    if (hasSummary) {
      notes.push(
        'Pass the system prompt through createAgent’s systemPrompt: summarizationMiddleware summarises a leading system message in the history along with everything else.',
      )
    }
    return {
      target: 'langchain',
      fileName: 'compaction.ts',
      language: 'typescript',
      text: lines.join('\n'),
      summary,
      warnings: w,
      notes,
    }
  },
}
