/**
 * `clear-tool-uses` → `new ClearToolUsesEdit({…})` and `summarize` → `summarizationMiddleware({…})`
 * (langchain 1.x JS option names and defaults).
 */
import type { CompactionConfig } from '../../../config/schema.ts'
import type { LossyWarning } from '../types.ts'
import { andAlternatives, targetLost, triggerAlternatives, type ContextSize } from './triggers.ts'
import { Code, ts, type TsValue } from './ts.ts'

type Step = CompactionConfig['pipeline'][number]

export interface Env {
  readonly usable: number
  readonly warnings: LossyWarning[]
  readonly protectedTools: readonly string[]
}

/** LangChain needs some trigger (none means "never"); `{messages: 1}` is "any conversation". */
function triggerValue(alts: readonly ContextSize[]): TsValue {
  const list = alts.length === 0 ? [{ messages: 1 }] : alts
  return list.length === 1 ? (list[0] as TsValue) : (list as TsValue)
}

export function clearToolUsesEdit(step: Step, i: number, env: Env): string {
  const p = step.params
  const w = env.warnings
  const at = (k: string) => `pipeline[${i}].params.${k}`
  const own: ContextSize[] = []
  if (typeof p.triggerInputTokens === 'number') own.push({ tokens: p.triggerInputTokens + 1 })
  if (typeof p.triggerToolUses === 'number') {
    w.push({
      path: at('triggerToolUses'),
      message: 'ClearToolUsesEdit counts all messages, not tool uses, in its trigger.',
      instead:
        own.length > 0 ? 'Only the token trigger is kept.' : 'It clears on every model call.',
    })
  }
  const stepAlts = triggerAlternatives(step.trigger, `pipeline[${i}].trigger`, env.usable, w)
  targetLost(step, i, w)
  if (typeof p.clearAtLeast === 'number' && p.clearAtLeast > 0) {
    w.push({
      path: at('clearAtLeast'),
      message:
        'LangChain’s (deprecated) clearAtLeast clears more of the kept results to reach the amount; it never skips an edit that frees too little.',
      instead: 'Old results are cleared whatever the saving.',
    })
  }
  let clearToolInputs = p.clearToolInputs === true
  if (Array.isArray(p.clearToolInputs)) {
    clearToolInputs = false
    w.push({
      path: at('clearToolInputs'),
      message:
        'ClearToolUsesEdit clears the inputs of all tools or of none; it takes no list of tool names.',
      instead: 'clearToolInputs: false (every tool input is kept).',
    })
  }
  // Protected tools are never modified: LangChain's excludeTools gives exactly that.
  const exclude = [
    ...new Set([
      ...(Array.isArray(p.excludeTools) ? (p.excludeTools as string[]) : []),
      ...env.protectedTools,
    ]),
  ]
  const options: Record<string, TsValue> = {
    trigger: triggerValue(andAlternatives(stepAlts, own)),
    keep: { messages: typeof p.keep === 'number' ? p.keep : 3 },
    excludeTools: exclude,
    clearToolInputs,
    placeholder: typeof p.placeholder === 'string' ? p.placeholder : '[cleared]',
  }
  return `new ClearToolUsesEdit(${ts(options, '      ')})`
}

export function summarization(step: Step, i: number, env: Env): string {
  const p = step.params
  const w = env.warnings
  const at = (k: string) => `pipeline[${i}].params.${k}`
  const warn = (key: string, message: string, instead: string) =>
    w.push({ path: at(key), message, instead })
  // The @falai gate: at or over maxTokens × threshold — LangChain's own ">=" semantics.
  const gate: ContextSize[] = []
  if (typeof p.compactionThreshold === 'number') {
    const max = typeof p.maxTokens === 'number' ? p.maxTokens : env.usable
    gate.push({ tokens: Math.ceil(max * p.compactionThreshold) })
  }
  const stepAlts = triggerAlternatives(step.trigger, `pipeline[${i}].trigger`, env.usable, w)
  targetLost(step, i, w)
  let keep = typeof p.preserveRecentMessages === 'number' ? p.preserveRecentMessages : 4
  if (typeof p.preserveRecentGroups === 'number') {
    keep = p.preserveRecentGroups
    warn(
      'preserveRecentGroups',
      'summarizationMiddleware keeps messages or tokens, not groups.',
      `keep: { messages: ${keep} } (it never splits a tool call from its results).`,
    )
  }
  if (p.role !== 'user') {
    warn(
      'role',
      `summarizationMiddleware always inserts the summary as a HumanMessage, not with the ${String(p.role)} role.`,
      'A user (human) message.',
    )
  }
  const maxIn = p.maxSummaryInputTokens
  if (typeof maxIn === 'number') {
    warn(
      'maxSummaryInputTokens',
      'trimTokensToSummarize keeps only the newest tokens of the messages being summarised; the older ones are dropped from the history rather than left verbatim.',
      `trimTokensToSummarize: ${maxIn}.`,
    )
  } else {
    warn(
      'maxSummaryInputTokens',
      'summarizationMiddleware always bounds the summariser’s input.',
      'Its default trimTokensToSummarize of 4,000 tokens (the newest ones).',
    )
  }
  warn(
    'maxOutputTokens',
    'summarizationMiddleware has no output-length option.',
    'The summary model’s own maxTokens setting applies.',
  )
  warn(
    'onFailure',
    'summarizationMiddleware is not fail-open and never truncates instead: when the model call fails, the history is still replaced.',
    'The summary becomes the text "Error generating summary: …".',
  )
  if (p.faithful === true) {
    warn(
      'faithful',
      'The @falai/agent bugs reproduced by faithful mode are not LangChain’s.',
      'LangChain’s own behaviour.',
    )
  }
  const prompt = typeof p.prompt === 'string' ? p.prompt : ''
  const prefix = typeof p.summaryPrefix === 'string' ? p.summaryPrefix.trimEnd() : ''
  const options: Record<string, TsValue | undefined> = {
    model: new Code('summaryModel'),
    trigger: triggerValue(andAlternatives(stepAlts, gate)),
    keep: { messages: keep },
    // Our prompt is followed by the transcript; LangChain substitutes it for {messages}.
    summaryPrompt: `${prompt}\n\n{messages}`,
    // LangChain writes "<prefix>\n\n<summary>".
    summaryPrefix: prefix,
    trimTokensToSummarize: typeof maxIn === 'number' ? maxIn : undefined,
  }
  return `summarizationMiddleware(${ts(options, '  ')})`
}
